import { useState } from 'preact/hooks'
import { api, call } from '../../api/client'
import {
  ActionResult,
  Button,
  Empty,
  Link,
  Loaded,
  Page,
  Section,
  StateBadge,
  TextField,
  formatTime,
} from '../../ui/kit'
import { useAction, useLoad } from '../../ui/hooks'
import { CredentialList } from './credentials'
import { ProofList } from './proofs'

export function WalletConnectionsPage() {
  const connections = useLoad(async () => (await call(() => api.GET('/v1/connections'))).data ?? [], [], {
    pollMs: 5_000,
  })
  return (
    <Page title="Connections" lead="Organizations and people your wallet is connected with.">
      <Section title="Connections">
        <Loaded state={connections}>
          {(list) =>
            list.length === 0 ? (
              <Empty>
                No connections yet. <Link to="/wallet/receive">Open an invitation</Link> from an organization.
              </Empty>
            ) : (
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">With</th>
                      <th scope="col">State</th>
                      <th scope="col">Since</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((connection) => (
                      <tr key={connection.id}>
                        <td>
                          <Link to={`/wallet/connections/${connection.id}`}>{connection.theirLabel ?? 'Unnamed'}</Link>
                        </td>
                        <td>
                          <StateBadge state={connection.state} />
                        </td>
                        <td>{formatTime(typeof connection.createdAt === 'string' ? connection.createdAt : null)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )
          }
        </Loaded>
      </Section>
    </Page>
  )
}

/** One connection: its state, what arrived over it (offers, requests) and its messages. */
export function WalletConnectionPage(props: { connectionId: string }) {
  const connectionId = props.connectionId
  const connection = useLoad(
    async () =>
      (await call(() => api.GET('/v1/connection/{connectionId}', { params: { path: { connectionId } } }))).data,
    [connectionId],
    { pollMs: 2_000, keepPolling: (record) => record?.state !== 'completed' },
  )
  const exchanges = useLoad(
    async () => {
      const [credentials, proofs] = await Promise.all([
        call(() => api.GET('/v1/credential', { params: { query: { connectionId } } })),
        call(() => api.GET('/v1/proofs')),
      ])
      return {
        credentials: credentials.data ?? [],
        proofs: (proofs.data ?? []).filter((record) => record.connectionId === connectionId),
      }
    },
    [connectionId],
    { pollMs: 3_000 },
  )
  return (
    <Loaded state={connection}>
      {(record) =>
        record ? (
          <Page title={record.theirLabel ?? 'Connection'} actions={<StateBadge state={record.state} />}>
            <Loaded state={exchanges}>
              {(value) => (
                <>
                  <CredentialList records={value.credentials} onChange={exchanges.reload} />
                  {value.proofs.length > 0 && <ProofList records={value.proofs} onChange={exchanges.reload} />}
                </>
              )}
            </Loaded>
            {record.state === 'completed' && <Messages connectionId={connectionId} />}
          </Page>
        ) : null
      }
    </Loaded>
  )
}

function Messages(props: { connectionId: string }) {
  const path = { connectionId: props.connectionId }
  const messages = useLoad(
    async () => (await call(() => api.GET('/v1/basic-message/{connectionId}', { params: { path } }))).data ?? [],
    [props.connectionId],
    {
      pollMs: 3_000,
    },
  )
  const [content, setContent] = useState('')
  const action = useAction()
  return (
    <Section title="Messages">
      <Loaded state={messages}>
        {(list) =>
          list.length === 0 ? (
            <Empty>No messages yet.</Empty>
          ) : (
            <ol class="messages" aria-live="polite">
              {list.map((message) => (
                <li key={message.id} class={message.role === 'sender' ? 'mine' : 'theirs'}>
                  <span class="visually-hidden">{message.role === 'sender' ? 'You' : 'They'}: </span>
                  {message.content}
                  <span class="muted block">
                    {formatTime(typeof message.sentTime === 'string' ? message.sentTime : null)}
                  </span>
                </li>
              ))}
            </ol>
          )
        }
      </Loaded>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault()
          void action.run(async () => {
            await call(() => api.POST('/v1/basic-message/{connectionId}', { params: { path }, body: { content } }))
            setContent('')
            messages.reload()
          })
        }}
      >
        <TextField label="Message" value={content} onValue={setContent} required />
        <Button type="submit" kind="primary" busy={action.isBusy}>
          Send
        </Button>
      </form>
      <ActionResult action={action} />
    </Section>
  )
}
