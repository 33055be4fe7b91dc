import { useState } from 'preact/hooks'
import { api, ApiError, call } from '../../api/client'
import {
  ActionResult,
  Button,
  CopyField,
  Empty,
  Loaded,
  Notice,
  Page,
  Section,
  SelectField,
  StateBadge,
  TextField,
  formatTime,
} from '../../ui/kit'
import { useAction, useLoad } from '../../ui/hooks'
import { useOrg } from './org-layout'

type DeliveryStatus = '' | 'pending' | 'delivered' | 'dead'

/** A random secret for signing deliveries: 32 bytes, base64url (43 characters, over the 16 the API needs). */
function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

export function WebhooksPage() {
  const { org } = useOrg()
  const orgId = org.id
  const webhook = useLoad(async () => {
    try {
      return (await call(() => api.GET('/v1/webhooks/orgs/webhookurl', { params: { query: { orgId } } }))).data ?? null
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null
      throw error
    }
  }, [orgId])
  return (
    <Page
      title="Webhooks"
      lead="The platform POSTs every connection, credential and proof event to your URL, signed with your secret."
    >
      <Loaded state={webhook}>{(current) => <WebhookForm current={current} onSaved={webhook.reload} />}</Loaded>
      {webhook.data && <Deliveries />}
    </Page>
  )
}

function WebhookForm(props: { current: { webhookUrl: string; hasSecret: boolean } | null; onSaved: () => void }) {
  const { org } = useOrg()
  const [url, setUrl] = useState(props.current?.webhookUrl ?? '')
  const [secret, setSecret] = useState('')
  const [shownSecret, setShownSecret] = useState<string | undefined>(undefined)
  const action = useAction()
  const ping = useAction()
  const path = { orgId: org.id }
  return (
    <Section title={props.current ? 'Your webhook' : 'Register a webhook'}>
      <form
        class="form"
        onSubmit={(event) => {
          event.preventDefault()
          void action.run(async () => {
            const body = { webhookUrl: url, ...(secret ? { webhookSecret: secret } : {}) }
            if (props.current) await call(() => api.PATCH('/v1/webhooks/orgs/{orgId}', { params: { path }, body }))
            else await call(() => api.POST('/v1/webhooks/orgs/{orgId}/register', { params: { path }, body }))
            setShownSecret(secret || undefined)
            setSecret('')
            props.onSaved()
            return props.current ? 'Webhook updated' : 'Webhook registered'
          })
        }}
      >
        <TextField
          label="URL"
          type="url"
          value={url}
          onValue={setUrl}
          required
          placeholder="https://example.com/idplane-events"
        />
        <div class="row">
          <TextField
            label={props.current?.hasSecret ? 'New secret (leave empty to keep the current one)' : 'Secret'}
            type="password"
            value={secret}
            onValue={setSecret}
            autoComplete="off"
            hint="At least 16 characters. Deliveries carry X-Signature: the HMAC-SHA256 of timestamp.body under it."
          />
          <Button onClick={() => setSecret(randomSecret())}>Generate a secret</Button>
        </div>
        <ActionResult action={action} />
        <Button type="submit" kind="primary" busy={action.isBusy}>
          {props.current ? 'Save' : 'Register'}
        </Button>
      </form>
      {shownSecret && (
        <>
          <Notice kind="info">Copy the secret now: the platform keeps it encrypted and never shows it again.</Notice>
          <CopyField label="Webhook secret" value={shownSecret} />
        </>
      )}
      {props.current && (
        <div class="row">
          <Button
            busy={ping.isBusy}
            onClick={() =>
              void ping.run(async () => {
                const sent = await call(() => api.POST('/v1/webhooks/orgs/{orgId}/ping', { params: { path } }))
                return `Ping queued (event ${sent.data?.eventId ?? ''}); it appears in the delivery log.`
              })
            }
          >
            Send a ping
          </Button>
          <ActionResult action={ping} />
        </div>
      )}
    </Section>
  )
}

function Deliveries() {
  const { org } = useOrg()
  const [status, setStatus] = useState<DeliveryStatus>('')
  const deliveries = useLoad(
    async () =>
      (
        await call(() =>
          api.GET('/v1/webhooks/orgs/{orgId}/deliveries', {
            params: { path: { orgId: org.id }, query: { pageSize: 50, ...(status ? { status } : {}) } },
          }),
        )
      ).data,
    [org.id, status],
    { pollMs: 3_000 },
  )
  const action = useAction()
  return (
    <Section
      title="Delivery log"
      actions={
        <SelectField<DeliveryStatus>
          label="Show"
          value={status}
          onValue={setStatus}
          options={[
            { value: '', label: 'All deliveries' },
            { value: 'pending', label: 'Pending' },
            { value: 'delivered', label: 'Delivered' },
            { value: 'dead', label: 'Failed for good' },
          ]}
        />
      }
    >
      <ActionResult action={action} />
      <Loaded state={deliveries}>
        {(page) =>
          page && page.data.length > 0 ? (
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Status</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Last answer</th>
                    <th scope="col">Occurred</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((delivery) => (
                    <tr key={delivery.id}>
                      <td>{delivery.eventType}</td>
                      <td>
                        <StateBadge state={delivery.status} />
                      </td>
                      <td>{delivery.attempts}</td>
                      <td>{delivery.lastResponseCode ?? delivery.lastError ?? '—'}</td>
                      <td>{formatTime(delivery.occurredAt)}</td>
                      <td>
                        <Button
                          onClick={() =>
                            void action.run(async () => {
                              await call(() =>
                                api.POST('/v1/webhooks/orgs/{orgId}/deliveries/{deliveryId}/replay', {
                                  params: { path: { orgId: org.id, deliveryId: delivery.id } },
                                }),
                              )
                              deliveries.reload()
                              return `Delivery of ${delivery.eventType} queued again`
                            })
                          }
                        >
                          Replay<span class="visually-hidden"> {delivery.eventType}</span>
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <Empty>
              No deliveries yet. Send a ping, or make a connection: every event is delivered and logged here.
            </Empty>
          )
        }
      </Loaded>
    </Section>
  )
}
