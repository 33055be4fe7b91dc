import { useState } from 'preact/hooks'
import { api, call } from '../../api/client'
import { navigate } from '../../router'
import { ActionResult, Button, CheckboxField, Page, Section, SelectField, TextField } from '../../ui/kit'
import { useAction } from '../../ui/hooks'
import { useOrg } from './org-layout'

type SchemaKind = 'JSON' | 'INDY'
const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'date', 'datetime', 'array'] as const
const INDY_TYPES = ['string', 'number', 'date', 'datetime'] as const

/** The constraints the form offers for each JSON data type (spec: Schema attribute definition, type JSON). */
const CONSTRAINTS: Record<string, { key: string; label: string; kind: 'number' | 'text' | 'list' }[]> = {
  string: [
    { key: 'minLength', label: 'Minimum length', kind: 'number' },
    { key: 'maxLength', label: 'Maximum length', kind: 'number' },
    { key: 'pattern', label: 'Pattern (regular expression)', kind: 'text' },
    { key: 'enum', label: 'Allowed values (comma-separated)', kind: 'list' },
  ],
  number: [
    { key: 'minimum', label: 'Minimum', kind: 'number' },
    { key: 'maximum', label: 'Maximum', kind: 'number' },
    { key: 'multipleOf', label: 'Multiple of', kind: 'number' },
  ],
  integer: [
    { key: 'minimum', label: 'Minimum', kind: 'number' },
    { key: 'maximum', label: 'Maximum', kind: 'number' },
  ],
  array: [
    { key: 'minItems', label: 'Minimum items', kind: 'number' },
    { key: 'maxItems', label: 'Maximum items', kind: 'number' },
  ],
}

interface AttributeRow {
  key: number
  attributeName: string
  displayName: string
  schemaDataType: string
  isRequired: boolean
  description: string
  constraints: Record<string, string>
}

let nextKey = 1
function anAttribute(): AttributeRow {
  return {
    key: nextKey++,
    attributeName: '',
    displayName: '',
    schemaDataType: 'string',
    isRequired: true,
    description: '',
    constraints: {},
  }
}

/** One attribute definition as the API takes it: only the constraints that were filled in. */
function toDefinition(row: AttributeRow, kind: SchemaKind): Record<string, unknown> {
  const definition: Record<string, unknown> = {
    attributeName: row.attributeName.trim(),
    displayName: row.displayName.trim() || row.attributeName.trim(),
    schemaDataType: row.schemaDataType,
    isRequired: row.isRequired,
  }
  if (kind === 'INDY') return definition
  if (row.description.trim()) definition.description = row.description.trim()
  if (row.schemaDataType === 'array') definition.items = { schemaDataType: 'string' }
  for (const constraint of CONSTRAINTS[row.schemaDataType] ?? []) {
    const raw = (row.constraints[constraint.key] ?? '').trim()
    if (raw === '') continue
    definition[constraint.key] =
      constraint.kind === 'number'
        ? Number(raw)
        : constraint.kind === 'list'
          ? raw
              .split(',')
              .map((value) => value.trim())
              .filter(Boolean)
          : raw
  }
  return definition
}

/** The form builder for schemas: attribute definitions with the constraints of their data type. */
export function SchemaBuilderPage() {
  const { org } = useOrg()
  const [kind, setKind] = useState<SchemaKind>('JSON')
  const [name, setName] = useState('')
  const [version, setVersion] = useState('1.0')
  const [description, setDescription] = useState('')
  const [rows, setRows] = useState<AttributeRow[]>([anAttribute()])
  const action = useAction()
  const update = (key: number, change: Partial<AttributeRow>) =>
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...change } : row)))
  const types = kind === 'JSON' ? JSON_TYPES : INDY_TYPES

  return (
    <Page
      title="New schema"
      lead="Name the schema and define its attributes. The constraints are checked whenever a credential is issued under it."
    >
      <form
        onSubmit={(event) => {
          event.preventDefault()
          void action.run(async () => {
            const attributes = rows.map((row) => toDefinition(row, kind))
            const schemaPayload =
              kind === 'JSON'
                ? {
                    schemaName: name,
                    schemaVersion: version,
                    schemaType: 'NO_LEDGER',
                    attributes,
                    ...(description ? { description } : {}),
                  }
                : { schemaName: name, schemaVersion: version, attributes }
            const created = await call(() =>
              api.POST('/v1/orgs/{orgId}/schemas', {
                params: { path: { orgId: org.id } },
                // schemaPayload is typed as an open object in the OpenAPI document.
                body: { type: kind, schemaPayload: schemaPayload as unknown as Record<string, never> },
              }),
            )
            if (created.data) navigate(`/orgs/${org.id}/schemas/${created.data.id}`)
          })
        }}
      >
        <Section title="Schema">
          <div class="form">
            <SelectField<SchemaKind>
              label="Type"
              value={kind}
              onValue={(value) => {
                setKind(value)
                setRows((current) => current.map((row) => ({ ...row, schemaDataType: 'string', constraints: {} })))
              }}
              options={[
                { value: 'JSON', label: 'JSON (for JSON-LD credentials)' },
                { value: 'INDY', label: 'INDY (for AnonCreds credentials; needs a did:indy agent)' },
              ]}
            />
            <TextField label="Name" value={name} onValue={setName} required />
            <TextField
              label="Version"
              value={version}
              onValue={setVersion}
              required
              hint={kind === 'INDY' ? 'Digits and dots, such as 1.0.' : undefined}
            />
            {kind === 'JSON' && <TextField label="Description" value={description} onValue={setDescription} />}
          </div>
        </Section>
        <Section
          title="Attributes"
          actions={<Button onClick={() => setRows((current) => [...current, anAttribute()])}>Add an attribute</Button>}
        >
          <ol class="attribute-list">
            {rows.map((row, index) => (
              <li key={row.key} class="attribute">
                <fieldset>
                  <legend>Attribute {index + 1}</legend>
                  <div class="grid">
                    <TextField
                      label="Name"
                      value={row.attributeName}
                      onValue={(value) => update(row.key, { attributeName: value })}
                      required
                      hint="As it appears in credentials."
                    />
                    <TextField
                      label="Display name"
                      value={row.displayName}
                      onValue={(value) => update(row.key, { displayName: value })}
                    />
                    <SelectField
                      label="Data type"
                      value={row.schemaDataType}
                      onValue={(value) => update(row.key, { schemaDataType: value, constraints: {} })}
                      options={types}
                    />
                    <CheckboxField
                      label="Required"
                      checked={row.isRequired}
                      onChecked={(value) => update(row.key, { isRequired: value })}
                    />
                  </div>
                  {kind === 'JSON' && (
                    <div class="grid">
                      <TextField
                        label="Description"
                        value={row.description}
                        onValue={(value) => update(row.key, { description: value })}
                      />
                      {(CONSTRAINTS[row.schemaDataType] ?? []).map((constraint) => (
                        <TextField
                          key={constraint.key}
                          label={constraint.label}
                          value={row.constraints[constraint.key] ?? ''}
                          inputMode={constraint.kind === 'number' ? 'decimal' : 'text'}
                          onValue={(value) =>
                            update(row.key, { constraints: { ...row.constraints, [constraint.key]: value } })
                          }
                        />
                      ))}
                    </div>
                  )}
                  {rows.length > 1 && (
                    <Button onClick={() => setRows((current) => current.filter((other) => other.key !== row.key))}>
                      Remove attribute {index + 1}
                    </Button>
                  )}
                </fieldset>
              </li>
            ))}
          </ol>
        </Section>
        <ActionResult action={action} />
        <Button type="submit" kind="primary" busy={action.isBusy}>
          Publish the schema
        </Button>
      </form>
    </Page>
  )
}
