import type { ComponentChildren } from 'preact'
import { api, call, ApiError } from '../../api/client'
import { Link, Loaded, Page, Section } from '../../ui/kit'
import { useLoad } from '../../ui/hooks'
import { useOrg } from './org-layout'

/** A readable label for a dashboard count key (`pendingInvitations` → "Pending invitations"). */
function labelOf(key: string): string {
  const words = key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export function OverviewPage() {
  const { org } = useOrg()
  const orgId = org.id
  const dashboard = useLoad(
    async () => (await call(() => api.GET('/v1/orgs/dashboard/{orgId}', { params: { path: { orgId } } }))).data ?? {},
    [orgId],
    { pollMs: 10_000 },
  )
  const agent = useLoad(async () => {
    try {
      return (await call(() => api.GET('/v1/orgs/{orgId}/agents/health', { params: { path: { orgId } } }))).data
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null
      throw error
    }
  }, [orgId])
  const counts = dashboard.data ?? {}
  const next: { done: boolean; text: ComponentChildren }[] = [
    {
      done: Boolean(agent.data && agent.data.status === 'DID_CREATED'),
      text: (
        <>
          <Link to={`/orgs/${orgId}/agent`}>Provision the agent</Link> that holds the organization's keys and DIDs.
        </>
      ),
    },
    {
      done: Number(counts.schemas ?? 0) > 0,
      text: (
        <>
          <Link to={`/orgs/${orgId}/schemas/new`}>Publish a schema</Link>: the attributes your credentials carry.
        </>
      ),
    },
    {
      done: Number(counts.connections ?? 0) > 0,
      text: (
        <>
          <Link to={`/orgs/${orgId}/connections`}>Connect with a holder</Link> through an invitation link or QR code.
        </>
      ),
    },
    {
      done: Number(counts.credentials ?? 0) > 0,
      text: (
        <>
          <Link to={`/orgs/${orgId}/issuance`}>Issue a credential</Link> to a connection, a QR code or an e-mail
          address.
        </>
      ),
    },
    {
      done: Number(counts.proofs ?? 0) > 0,
      text: (
        <>
          <Link to={`/orgs/${orgId}/verification`}>Request a proof</Link> and read the verified values.
        </>
      ),
    },
  ]
  return (
    <Page title={org.name} lead={org.description}>
      <Section title="Next steps">
        <ol class="checklist">
          {next.map((step, index) => (
            <li key={index} class={step.done ? 'done' : undefined}>
              <span class="visually-hidden">{step.done ? 'Done: ' : 'To do: '}</span>
              {step.text}
            </li>
          ))}
        </ol>
      </Section>
      <Section title="At a glance">
        <Loaded state={dashboard}>
          {(values) => (
            <dl class="stats">
              {Object.entries(values).map(([key, value]) => (
                <div key={key}>
                  <dt>{labelOf(key)}</dt>
                  <dd>{typeof value === 'boolean' ? (value ? 'Yes' : 'No') : value}</dd>
                </div>
              ))}
            </dl>
          )}
        </Loaded>
      </Section>
    </Page>
  )
}
