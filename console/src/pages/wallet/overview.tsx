import { api, call } from '../../api/client'
import { Link, Loaded, Page, Section } from '../../ui/kit'
import { useLoad } from '../../ui/hooks'

export function WalletOverviewPage() {
  const counts = useLoad(
    async () => {
      const [credentials, proofs, connections] = await Promise.all([
        call(() => api.GET('/v1/credential')),
        call(() => api.GET('/v1/proofs')),
        call(() => api.GET('/v1/connections')),
      ])
      const credentialList = credentials.data ?? []
      return {
        offers: credentialList.filter((record) => record.state === 'offer-received').length,
        held: credentialList.filter((record) => record.state === 'done').length,
        requests: (proofs.data ?? []).filter((record) => record.state === 'request-received').length,
        connections: (connections.data ?? []).length,
      }
    },
    [],
    { pollMs: 5_000 },
  )
  return (
    <Page
      title="Your wallet"
      lead="Open invitation links from issuers and verifiers, accept credentials and answer proof requests."
    >
      <Loaded state={counts}>
        {(value) => (
          <Section title="At a glance">
            <dl class="stats">
              <div>
                <dt>Offers waiting</dt>
                <dd>
                  <Link to="/wallet/credentials">{value.offers}</Link>
                </dd>
              </div>
              <div>
                <dt>Credentials held</dt>
                <dd>
                  <Link to="/wallet/credentials">{value.held}</Link>
                </dd>
              </div>
              <div>
                <dt>Proof requests waiting</dt>
                <dd>
                  <Link to="/wallet/proofs">{value.requests}</Link>
                </dd>
              </div>
              <div>
                <dt>Connections</dt>
                <dd>
                  <Link to="/wallet/connections">{value.connections}</Link>
                </dd>
              </div>
            </dl>
            <p>
              Got a link or QR code from an organization? <Link to="/wallet/receive">Open the invitation</Link>.
            </p>
          </Section>
        )}
      </Loaded>
    </Page>
  )
}
