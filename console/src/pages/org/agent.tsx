import { useState } from 'preact/hooks'
import { api, ApiError, call, type Schemas } from '../../api/client'
import {
  ActionResult,
  Button,
  Empty,
  Loaded,
  Page,
  Section,
  SelectField,
  StateBadge,
  Steps,
  TextField,
  formatTime,
} from '../../ui/kit'
import { useAction, useLoad } from '../../ui/hooks'
import { useOrg } from './org-layout'

type Method = NonNullable<Schemas['SpinUpAgentDto']['method']>
const STEPS = ['Requested', 'Wallet created', 'DID created']
const STEP_OF: Record<Schemas['AgentHealth']['status'], number> = {
  PENDING: 0,
  WALLET_CREATED: 1,
  DID_CREATED: 3,
  FAILED: 0,
}

export function AgentPage() {
  const { org } = useOrg()
  const orgId = org.id
  const health = useLoad(
    async () => {
      try {
        return (
          (await call(() => api.GET('/v1/orgs/{orgId}/agents/health', { params: { path: { orgId } } }))).data ?? null
        )
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null
        throw error
      }
    },
    [orgId],
    // Fast while provisioning runs, then a slow health check.
    {
      pollMs: 1_500,
      keepPolling: (agent) => agent !== null && agent.status !== 'DID_CREATED' && agent.status !== 'FAILED',
    },
  )
  return (
    <Page title="Agent and DIDs" lead="The organization's own DIDComm agent holds its keys, DIDs and credentials.">
      <Loaded state={health}>
        {(agent) => (agent ? <AgentStatus agent={agent} /> : <Provision onStarted={health.reload} />)}
      </Loaded>
      {health.data?.status === 'DID_CREATED' && <Dids />}
    </Page>
  )
}

function Provision(props: { onStarted: () => void }) {
  const { org } = useOrg()
  const [label, setLabel] = useState(org.name)
  const [method, setMethod] = useState<Method>('key')
  const [domain, setDomain] = useState('')
  const [seed, setSeed] = useState('')
  const action = useAction()
  return (
    <Section title="Provision the agent">
      <p>
        The organization has no agent yet. Provisioning starts one and creates its first DID; it takes a few seconds to
        a minute.
      </p>
      <form
        class="form"
        onSubmit={(event) => {
          event.preventDefault()
          void action.run(async () => {
            await call(() =>
              api.POST('/v1/orgs/{orgId}/agents/spinup', {
                params: { path: { orgId: org.id } },
                body: { label, method, ...(method === 'web' ? { domain } : {}), ...(seed ? { seed } : {}) },
              }),
            )
            props.onStarted()
          })
        }}
      >
        <TextField
          label="Label"
          value={label}
          onValue={setLabel}
          required
          hint="The name holders see when they connect."
        />
        <SelectField<Method>
          label="First DID method"
          value={method}
          onValue={setMethod}
          options={[
            { value: 'key', label: 'did:key (JSON-LD credentials)' },
            { value: 'indy', label: 'did:indy on the platform ledger (INDY credentials)' },
            { value: 'peer', label: 'did:peer' },
            { value: 'web', label: 'did:web' },
          ]}
        />
        {method === 'web' && (
          <TextField label="Domain" value={domain} onValue={setDomain} required placeholder="issuer.example.com" />
        )}
        <TextField
          label="Seed (optional)"
          value={seed}
          onValue={setSeed}
          hint="32 characters without spaces, to derive a known key; leave empty for a random one."
        />
        <ActionResult action={action} />
        <Button type="submit" kind="primary" busy={action.isBusy}>
          Provision
        </Button>
      </form>
    </Section>
  )
}

function AgentStatus(props: { agent: Schemas['AgentHealth'] }) {
  const { agent } = props
  const isReady = agent.status === 'DID_CREATED'
  return (
    <Section title="Status" actions={<StateBadge state={agent.status} />}>
      {!isReady && (
        <Steps
          steps={STEPS}
          current={STEP_OF[agent.status]}
          failed={agent.status === 'FAILED' ? (agent.failureReason ?? 'Provisioning failed') : null}
        />
      )}
      <dl class="facts">
        <dt>Label</dt>
        <dd>{agent.label}</dd>
        <dt>Answering now</dt>
        <dd>{agent.isAnswering ? 'Yes' : 'No'}</dd>
        <dt>Runtime</dt>
        <dd>{agent.runtime}</dd>
        <dt>DID method</dt>
        <dd>{agent.didMethod}</dd>
        <dt>Endpoint</dt>
        <dd>{agent.controllerEndpoint ?? '—'}</dd>
        <dt>Restarts</dt>
        <dd>{agent.restarts}</dd>
        <dt>Created</dt>
        <dd>{formatTime(agent.createdAt)}</dd>
      </dl>
    </Section>
  )
}

function Dids() {
  const { org } = useOrg()
  const orgId = org.id
  const dids = useLoad(
    async () => (await call(() => api.GET('/v1/orgs/{orgId}/dids', { params: { path: { orgId } } }))).data ?? [],
    [orgId],
  )
  const action = useAction()
  return (
    <Section title="DIDs">
      <ActionResult action={action} />
      <Loaded state={dids}>
        {(list) =>
          list.length === 0 ? (
            <Empty>No DIDs yet.</Empty>
          ) : (
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">DID</th>
                    <th scope="col">Primary</th>
                    <th scope="col">Created</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((record) => (
                    <tr key={record.id}>
                      <td>
                        <code class="break">{record.did}</code>
                      </td>
                      <td>{record.isPrimaryDid ? <StateBadge state="primary" /> : 'No'}</td>
                      <td>{formatTime(record.createdAt)}</td>
                      <td>
                        {!record.isPrimaryDid && (
                          <Button
                            busy={action.isBusy}
                            onClick={() =>
                              void action.run(async () => {
                                await call(() =>
                                  api.PUT('/v1/orgs/{orgId}/primary-did', {
                                    params: { path: { orgId } },
                                    body: { did: record.did, id: record.id },
                                  }),
                                )
                                dids.reload()
                                return 'Primary DID changed'
                              })
                            }
                          >
                            Make primary
                          </Button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
    </Section>
  )
}
