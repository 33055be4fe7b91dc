import { createContext, type JSX } from 'preact'
import { useContext, useEffect, useState } from 'preact/hooks'
import { api, call, type Schemas } from '../../api/client'
import { match } from '../../router'
import { Link, Loaded } from '../../ui/kit'
import { useLoad } from '../../ui/hooks'
import { NotFound } from '../not-found'
import { OverviewPage } from './overview'
import { SettingsPage } from './settings'
import { MembersPage } from './members'
import { AgentPage } from './agent'
import { SchemasPage } from './schemas'
import { SchemaBuilderPage } from './schema-builder'
import { SchemaDetailPage } from './schema-detail'
import { CredDefsPage } from './cred-defs'
import { ConnectionsPage } from './connections'
import { ConnectionDetailPage } from './connection-detail'
import { IssuancePage } from './issuance'
import { IssuanceDetailPage } from './issuance-detail'
import { BulkPage } from './bulk'
import { VerificationPage } from './verification'
import { ProofDetailPage } from './proof-detail'
import { WebhooksPage } from './webhooks'
import { ClientCredentialsPage } from './client-credentials'
import { EcosystemsPage } from './ecosystems'

export interface OrgContextValue {
  org: Schemas['Organization']
  reloadOrg: () => void
}

export const OrgContext = createContext<OrgContextValue | undefined>(undefined)

export function useOrg(): OrgContextValue {
  const value = useContext(OrgContext)
  if (!value) throw new Error('useOrg outside an organization')
  return value
}

/**
 * The organization's sections, in navigation order. A new capability is a page and one entry here: OpenID4VC issuance
 * and verification (issue 29) go beside Issuance and Verification, revocation (issue 25) into those two pages.
 */
const SECTIONS: { path: string; label: string }[] = [
  { path: '', label: 'Overview' },
  { path: 'agent', label: 'Agent and DIDs' },
  { path: 'schemas', label: 'Schemas' },
  { path: 'cred-defs', label: 'Credential definitions' },
  { path: 'connections', label: 'Connections' },
  { path: 'issuance', label: 'Issuance' },
  { path: 'bulk', label: 'Bulk issuance' },
  { path: 'verification', label: 'Verification' },
  { path: 'webhooks', label: 'Webhooks' },
  { path: 'members', label: 'Members' },
  { path: 'client-credentials', label: 'Client credentials' },
  { path: 'settings', label: 'Settings' },
]

/** One organization: its section navigation and the section's page. */
export function OrgLayout(props: { orgId: string; path: string }) {
  const org = useLoad(
    async () => (await call(() => api.GET('/v1/orgs/{orgId}', { params: { path: { orgId: props.orgId } } }))).data,
    [props.orgId],
  )
  const hasEcosystems = useEcosystemFeature(props.orgId)
  const sections = hasEcosystems
    ? [...SECTIONS.slice(0, -3), { path: 'ecosystems', label: 'Ecosystems' }, ...SECTIONS.slice(-3)]
    : SECTIONS
  const section = props.path.split('/')[0] ?? ''
  return (
    <div class="layout">
      <nav class="sidenav" aria-label="Organization">
        <p class="sidenav-title">{org.data?.name ?? 'Organization'}</p>
        <ul>
          {sections.map((item) => (
            <li key={item.path}>
              <Link to={`/orgs/${props.orgId}${item.path ? `/${item.path}` : ''}`} current={section === item.path}>
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main">
        <Loaded state={org}>
          {(value) =>
            value ? (
              <OrgContext.Provider value={{ org: value, reloadOrg: org.reload }}>
                <OrgSection path={props.path} />
              </OrgContext.Provider>
            ) : null
          }
        </Loaded>
      </main>
    </div>
  )
}

/** Ecosystem routes answer 403 while the platform's ecosystem flag is off: the section shows only when it is on. */
function useEcosystemFeature(orgId: string): boolean {
  const [isOn, setOn] = useState(false)
  useEffect(() => {
    let isCurrent = true
    api
      .GET('/v1/ecosystem', { params: { query: { orgId, pageSize: 1 } } })
      .then((answer) => {
        if (isCurrent) setOn(answer.response.status !== 403)
      })
      .catch(() => undefined)
    return () => {
      isCurrent = false
    }
  }, [orgId])
  return isOn
}

function OrgSection(props: { path: string }) {
  const { path } = props
  const routes: [string, (params: Record<string, string>) => JSX.Element][] = [
    ['', () => <OverviewPage />],
    ['settings', () => <SettingsPage />],
    ['members', () => <MembersPage />],
    ['agent', () => <AgentPage />],
    ['schemas', () => <SchemasPage />],
    ['schemas/new', () => <SchemaBuilderPage />],
    ['schemas/:schemaId', (params) => <SchemaDetailPage schemaId={params.schemaId ?? ''} />],
    ['cred-defs', () => <CredDefsPage />],
    ['connections', () => <ConnectionsPage />],
    ['connections/:connectionId', (params) => <ConnectionDetailPage connectionId={params.connectionId ?? ''} />],
    ['issuance', () => <IssuancePage />],
    ['issuance/:recordId', (params) => <IssuanceDetailPage recordId={params.recordId ?? ''} />],
    ['bulk', () => <BulkPage />],
    ['verification', () => <VerificationPage />],
    ['verification/:proofId', (params) => <ProofDetailPage proofId={params.proofId ?? ''} />],
    ['webhooks', () => <WebhooksPage />],
    ['client-credentials', () => <ClientCredentialsPage />],
    ['ecosystems', () => <EcosystemsPage />],
  ]
  for (const [pattern, render] of routes) {
    const params = match(pattern, path)
    if (params) return render(params)
  }
  return <NotFound />
}
