import { useState } from 'preact/hooks'
import { api, call, type Schemas } from '../../api/client'
import {
  ActionResult,
  Button,
  CheckboxField,
  Empty,
  Link,
  Loaded,
  Page,
  Section,
  SelectField,
  StateBadge,
  TextField,
  formatTime,
} from '../../ui/kit'
import { useAction, useLoad } from '../../ui/hooks'
import { useOrg } from './org-layout'

type CredDef = Schemas['CredentialDefinition']

const isCreating = (list: CredDef[]) => list.some((definition) => definition.status === 'creating')

export function CredDefsPage() {
  const { org } = useOrg()
  const orgId = org.id
  const definitions = useLoad(
    async () =>
      (
        await call(() =>
          api.GET('/v1/orgs/{orgId}/cred-defs', {
            params: { path: { orgId }, query: { pageSize: 100, revocable: false } },
          }),
        )
      ).data?.data ?? [],
    [orgId],
    // Key generation runs as a job: follow it until every definition is created or failed.
    { pollMs: 2_000, keepPolling: isCreating },
  )
  const schemas = useLoad(
    async () =>
      (
        await call(() => api.GET('/v1/orgs/{orgId}/schemas', { params: { path: { orgId }, query: { pageSize: 100 } } }))
      ).data?.data.filter((schema) => schema.type === 'INDY') ?? [],
    [orgId],
  )
  return (
    <Page
      title="Credential definitions"
      lead="An INDY schema needs a credential definition (the issuer's keys for it) before credentials can be issued."
    >
      <Loaded state={schemas}>
        {(list) =>
          list.length > 0 ? (
            <CreateCredDef schemas={list} onCreated={definitions.reload} />
          ) : (
            <Empty>
              Credential definitions are made from INDY schemas.{' '}
              <Link to={`/orgs/${orgId}/schemas/new`}>Publish an INDY schema</Link> first.
            </Empty>
          )
        }
      </Loaded>
      <Section title="Definitions">
        <Loaded state={definitions}>{(list) => <CredDefTable definitions={list} />}</Loaded>
      </Section>
    </Page>
  )
}

export function CredDefTable(props: { definitions: CredDef[] }) {
  if (props.definitions.length === 0) return <Empty>No credential definitions yet.</Empty>
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Tag</th>
            <th scope="col">Status</th>
            <th scope="col">Ledger id</th>
            <th scope="col">Revocable</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {props.definitions.map((definition) => (
            <tr key={definition.id}>
              <td>{definition.tag}</td>
              <td>
                <StateBadge state={definition.status} />
                {definition.status === 'creating' && <span class="muted"> generating keys…</span>}
                {definition.error && <span class="field-error block">{definition.error}</span>}
              </td>
              <td>
                <code class="break">{definition.credentialDefinitionId ?? '—'}</code>
              </td>
              <td>{definition.revocable ? 'Yes' : 'No'}</td>
              <td>{formatTime(definition.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

export function CreateCredDef(props: {
  schemas: Schemas['CredentialSchema'][]
  onCreated: () => void
  fixedSchema?: string
}) {
  const { org } = useOrg()
  const [schemaLedgerId, setSchema] = useState(props.fixedSchema ?? props.schemas[0]?.schemaLedgerId ?? '')
  const [tag, setTag] = useState('default')
  const action = useAction()
  return (
    <Section title="Create a credential definition">
      <form
        class="form"
        onSubmit={(event) => {
          event.preventDefault()
          void action.run(async () => {
            await call(() =>
              api.POST('/v1/orgs/{orgId}/cred-defs', {
                params: { path: { orgId: org.id } },
                body: { tag, schemaLedgerId, revocable: false },
              }),
            )
            props.onCreated()
            return 'Creation started: the keys are generated in the background (seconds to a minute).'
          })
        }}
      >
        {!props.fixedSchema && (
          <SelectField
            label="Schema"
            value={schemaLedgerId}
            onValue={setSchema}
            options={props.schemas.map((schema) => ({
              value: schema.schemaLedgerId,
              label: `${schema.name} ${schema.version}`,
            }))}
          />
        )}
        <TextField label="Tag" value={tag} onValue={setTag} required hint="Tells definitions of one schema apart." />
        {/* Revocation registries do not exist yet (issue 25): the choice is shown, off, until they do. */}
        <CheckboxField
          label="Revocable"
          checked={false}
          onChecked={() => undefined}
          hint="Revocation is not available on this platform yet."
        />
        <ActionResult action={action} />
        <Button type="submit" kind="primary" busy={action.isBusy}>
          Create
        </Button>
      </form>
    </Section>
  )
}
