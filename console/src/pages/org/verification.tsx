import { useEffect, useState } from 'preact/hooks'
import { api, call, type Schemas } from '../../api/client'
import {
  ActionResult,
  Button,
  CheckboxField,
  CopyField,
  Empty,
  Link,
  Loaded,
  Notice,
  Page,
  Section,
  SelectField,
  ShortId,
  StateBadge,
  TextArea,
  TextField,
  formatTime,
} from '../../ui/kit'
import { useAction, useLoad } from '../../ui/hooks'
import { QrCode } from '../../ui/qr-code'
import { useOrg } from './org-layout'
import { templateForSchema } from './credential-form'
import { typeName, type CredentialTemplate } from './credential-shape'

type RequestType = 'INDY' | 'PRESENTATIONEXCHANGE'
type Delivery = 'connection' | 'oob'
type Condition = '' | '>=' | '<=' | '>' | '<'

interface IndyRow {
  key: number
  attributeName: string
  credDefId: string
  condition: Condition
  value: string
}

let nextKey = 1
const anIndyRow = (): IndyRow => ({ key: nextKey++, attributeName: '', credDefId: '', condition: '', value: '' })

export function VerificationPage() {
  const { org } = useOrg()
  const orgId = org.id
  const proofs = useLoad(
    async () =>
      (await call(() => api.GET('/v1/orgs/{orgId}/proofs', { params: { path: { orgId }, query: { pageSize: 50 } } })))
        .data,
    [orgId],
    { pollMs: 3_000 },
  )
  return (
    <Page
      title="Verification"
      lead="Ask holders to prove attributes (or a predicate such as age ≥ 18) and read the verified result."
    >
      <RequestBuilder onSent={proofs.reload} />
      <Section title="Proof requests">
        <Loaded state={proofs}>
          {(page) =>
            page && page.data.length > 0 ? (
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Request</th>
                      <th scope="col">Format</th>
                      <th scope="col">State</th>
                      <th scope="col">Verified</th>
                      <th scope="col">Updated</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.data.map((proof) => (
                      <tr key={proof.id}>
                        <td>
                          <Link to={`/orgs/${orgId}/verification/${proof.id}`}>Open</Link> <ShortId id={proof.id} />
                        </td>
                        <td>{proof.requestType ?? '—'}</td>
                        <td>
                          <StateBadge state={proof.state} />
                        </td>
                        <td>{proof.isVerified === null ? '—' : proof.isVerified ? 'Yes' : 'No'}</td>
                        <td>{formatTime(proof.updatedAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <Empty>No proof requests yet. Build one above and send it to a connection or show its QR code.</Empty>
            )
          }
        </Loaded>
      </Section>
    </Page>
  )
}

/**
 * A presentation definition asking for the chosen attributes of credentials under one JSON schema. `schema.uri` is the
 * credential's type (what a holder's wallet looks credentials up by: a type, an expanded type or a context; Credo does
 * not look at `credentialSchema`), and a field pins `credentialSchema.id` to this schema's URL, since two
 * organizations may name schemas alike.
 */
function definitionFor(template: CredentialTemplate, attributes: string[]) {
  return {
    id: crypto.randomUUID(),
    input_descriptors: [
      {
        id: 'credential',
        name: template.schemaName,
        schema: [{ uri: typeName(template.schemaName) }],
        constraints: {
          fields: [
            { path: ['$.credentialSchema.id'], filter: { type: 'string', const: template.schemaUrl } },
            ...attributes.map((name) => ({ path: [`$.credentialSubject.${name}`] })),
          ],
        },
      },
    ],
  }
}

function RequestBuilder(props: { onSent: () => void }) {
  const { org } = useOrg()
  const orgId = org.id
  const [requestType, setRequestType] = useState<RequestType>('PRESENTATIONEXCHANGE')
  const [delivery, setDelivery] = useState<Delivery>('connection')
  const [connectionId, setConnectionId] = useState('')
  const [rows, setRows] = useState<IndyRow[]>([anIndyRow()])
  const [schemaId, setSchemaId] = useState('')
  const [template, setTemplate] = useState<CredentialTemplate | undefined>(undefined)
  const [chosen, setChosen] = useState<string[]>([])
  const [definitionText, setDefinitionText] = useState('')
  const [invitation, setInvitation] = useState<string | undefined>(undefined)
  const action = useAction()
  const sources = useLoad(async () => {
    const [connections, schemas, definitions] = await Promise.all([
      call(() => api.GET('/v1/orgs/{orgId}/connections', { params: { path: { orgId }, query: { pageSize: 100 } } })),
      call(() => api.GET('/v1/orgs/{orgId}/schemas', { params: { path: { orgId }, query: { pageSize: 100 } } })),
      call(() =>
        api.GET('/v1/orgs/{orgId}/cred-defs', {
          params: { path: { orgId }, query: { pageSize: 100, revocable: false } },
        }),
      ),
    ])
    return {
      connections: connections.data?.connections.filter((connection) => connection.state === 'completed') ?? [],
      jsonSchemas: schemas.data?.data.filter((schema) => schema.type === 'JSON') ?? [],
      credDefs: definitions.data?.data.filter((definition) => definition.status === 'created') ?? [],
    }
  }, [orgId])

  useEffect(() => {
    const data = sources.data
    if (!data) return
    if (!connectionId && data.connections[0]) setConnectionId(data.connections[0].id)
    if (!schemaId && data.jsonSchemas[0]) setSchemaId(data.jsonSchemas[0].id)
  }, [sources.data])
  useEffect(() => {
    setTemplate(undefined)
    if (!schemaId) return
    void templateForSchema(orgId, schemaId).then((loaded) => {
      setTemplate(loaded)
      setChosen(loaded.attributes.map((attribute) => attribute.name))
    })
  }, [schemaId])
  useEffect(() => {
    if (template) setDefinitionText(JSON.stringify(definitionFor(template, chosen), null, 2))
  }, [template, chosen])

  const updateRow = (key: number, change: Partial<IndyRow>) =>
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...change } : row)))

  const send = () =>
    action.run(async () => {
      setInvitation(undefined)
      const path = { orgId }
      const query = { requestType }
      let presentationDefinition: Schemas['PresentationDefinitionDto'] | undefined
      if (requestType === 'PRESENTATIONEXCHANGE') {
        try {
          presentationDefinition = JSON.parse(definitionText) as Schemas['PresentationDefinitionDto']
        } catch {
          throw new Error('The presentation definition is not valid JSON')
        }
      }
      const indyAttributes = rows
        .filter((row) => row.attributeName.trim())
        .map((row) => ({
          attributeName: row.attributeName.trim(),
          ...(row.credDefId ? { credDefId: row.credDefId } : {}),
          ...(row.condition ? { condition: row.condition, value: row.value } : {}),
        }))
      if (delivery === 'connection') {
        await call(() =>
          api.POST('/v1/orgs/{orgId}/proofs', {
            params: { path, query },
            body:
              requestType === 'INDY'
                ? { connectionId, proofFormats: { indy: { attributes: indyAttributes } } }
                : { connectionId, presentationDefinition },
          }),
        )
        props.onSent()
        return 'Proof request sent to the connection.'
      }
      const restrictions = (row: IndyRow) => (row.credDefId ? { restrictions: [{ cred_def_id: row.credDefId }] } : {})
      const named = rows.filter((row) => row.attributeName.trim())
      const indy = {
        name: 'Proof request',
        version: '1.0',
        requested_attributes: Object.fromEntries(
          named
            .filter((row) => !row.condition)
            .map((row, index) => [`attribute_${index}`, { name: row.attributeName.trim(), ...restrictions(row) }]),
        ),
        requested_predicates: Object.fromEntries(
          named
            .filter((row) => row.condition)
            .map((row, index) => [
              `predicate_${index}`,
              {
                name: row.attributeName.trim(),
                p_type: row.condition,
                p_value: Number(row.value),
                ...restrictions(row),
              },
            ]),
        ),
      }
      const created = await call(() =>
        api.POST('/v1/orgs/{orgId}/proofs/oob', {
          params: { path, query },
          body:
            requestType === 'INDY'
              ? { proofFormats: { indy: indy as unknown as Schemas['IndyOobProofDto'] }, isShortenUrl: true }
              : { presentationDefinition, isShortenUrl: true },
        }),
      )
      setInvitation(created.data?.[0]?.invitationUrl)
      props.onSent()
      return 'Proof request created: the holder scans the QR code or opens the link.'
    })

  return (
    <Section title="Request a proof">
      <Loaded state={sources}>
        {(data) => (
          <form
            class="form"
            onSubmit={(event) => {
              event.preventDefault()
              void send()
            }}
          >
            <SelectField<RequestType>
              label="Format"
              value={requestType}
              onValue={setRequestType}
              options={[
                { value: 'PRESENTATIONEXCHANGE', label: 'Presentation Exchange (JSON-LD credentials)' },
                { value: 'INDY', label: 'INDY (AnonCreds attributes and predicates)' },
              ]}
            />
            {requestType === 'PRESENTATIONEXCHANGE' ? (
              data.jsonSchemas.length === 0 ? (
                <Notice>
                  Requests are built from a JSON schema; publish one first, or write the definition below.
                </Notice>
              ) : (
                <>
                  <SelectField
                    label="Credentials under the schema"
                    value={schemaId}
                    onValue={setSchemaId}
                    options={data.jsonSchemas.map((schema) => ({
                      value: schema.id,
                      label: `${schema.name} ${schema.version}`,
                    }))}
                  />
                  {template && (
                    <fieldset class="field">
                      <legend>Attributes to disclose</legend>
                      <div class="row wrap">
                        {template.attributes.map((attribute) => (
                          <CheckboxField
                            key={attribute.name}
                            label={attribute.label}
                            checked={chosen.includes(attribute.name)}
                            onChecked={(checked) =>
                              setChosen(
                                checked
                                  ? [...chosen, attribute.name]
                                  : chosen.filter((name) => name !== attribute.name),
                              )
                            }
                          />
                        ))}
                      </div>
                    </fieldset>
                  )}
                </>
              )
            ) : (
              <fieldset class="field">
                <legend>Attributes and predicates</legend>
                <ol class="attribute-list">
                  {rows.map((row, index) => (
                    <li key={row.key} class="grid">
                      <TextField
                        label={`Attribute ${index + 1}`}
                        value={row.attributeName}
                        onValue={(value) => updateRow(row.key, { attributeName: value })}
                        required={index === 0}
                      />
                      <SelectField
                        label="Issued under"
                        value={row.credDefId}
                        onValue={(value) => updateRow(row.key, { credDefId: value })}
                        options={[
                          { value: '', label: 'Any credential definition' },
                          ...data.credDefs.map((definition) => ({
                            value: definition.credentialDefinitionId ?? '',
                            label: definition.tag,
                          })),
                        ]}
                      />
                      <SelectField<Condition>
                        label="Predicate"
                        value={row.condition}
                        onValue={(value) => updateRow(row.key, { condition: value })}
                        options={[
                          { value: '', label: 'None: reveal the value' },
                          { value: '>=', label: '≥ (at least)' },
                          { value: '>', label: '> (more than)' },
                          { value: '<=', label: '≤ (at most)' },
                          { value: '<', label: '< (less than)' },
                        ]}
                      />
                      {row.condition && (
                        <TextField
                          label="Than"
                          value={row.value}
                          onValue={(value) => updateRow(row.key, { value })}
                          required
                          inputMode="numeric"
                          pattern="-?[0-9]+"
                        />
                      )}
                    </li>
                  ))}
                </ol>
                <Button onClick={() => setRows((current) => [...current, anIndyRow()])}>Add an attribute</Button>
              </fieldset>
            )}
            {requestType === 'PRESENTATIONEXCHANGE' && (
              <TextArea
                label="Presentation definition"
                value={definitionText}
                onValue={setDefinitionText}
                rows={8}
                mono
                hint="Built from the choices above; edit it for anything they do not cover."
              />
            )}
            <SelectField<Delivery>
              label="Send"
              value={delivery}
              onValue={setDelivery}
              options={[
                { value: 'connection', label: 'To a connection' },
                { value: 'oob', label: 'With a QR code or link' },
              ]}
            />
            {delivery === 'connection' &&
              (data.connections.length > 0 ? (
                <SelectField
                  label="Connection"
                  value={connectionId}
                  onValue={setConnectionId}
                  options={data.connections.map((connection) => ({
                    value: connection.id,
                    label: `${connection.theirLabel ?? 'Unnamed'} (${connection.id.slice(0, 8)})`,
                  }))}
                />
              ) : (
                <Notice>
                  No completed connection yet: <Link to={`/orgs/${orgId}/connections`}>invite a holder</Link>, or send
                  with a QR code.
                </Notice>
              ))}
            <ActionResult action={action} />
            <Button
              type="submit"
              kind="primary"
              busy={action.isBusy}
              disabled={delivery === 'connection' && !connectionId}
            >
              Send the request
            </Button>
            {invitation && (
              <div class="invitation">
                <QrCode text={invitation} label="QR code of the proof request" />
                <CopyField label="Request link" value={invitation} />
              </div>
            )}
          </form>
        )}
      </Loaded>
    </Section>
  )
}
