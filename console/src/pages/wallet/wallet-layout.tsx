import { useState } from 'preact/hooks'
import { api, ApiError, call } from '../../api/client'
import { match } from '../../router'
import { ActionResult, Button, Link, Loading, Notice, Page, Section, TextField } from '../../ui/kit'
import { useAction, useLoad } from '../../ui/hooks'
import { NotFound } from '../not-found'
import { WalletOverviewPage } from './overview'
import { ReceivePage } from './receive'
import { WalletConnectionsPage, WalletConnectionPage } from './connections'
import { WalletCredentialsPage } from './credentials'
import { WalletProofsPage } from './proofs'
import { WalletDidsPage } from './dids'

const SECTIONS = [
  { path: '', label: 'Overview' },
  { path: '/receive', label: 'Open an invitation' },
  { path: '/credentials', label: 'Credentials' },
  { path: '/proofs', label: 'Proof requests' },
  { path: '/connections', label: 'Connections' },
  { path: '/dids', label: 'DIDs' },
]

type WalletState = 'ready' | 'none' | 'unavailable'

/** The holder's cloud wallet: created once per user, then its sections. */
export function WalletLayout(props: { path: string }) {
  const wallet = useLoad<{ state: WalletState; message?: string }>(async () => {
    try {
      await call(() => api.GET('/v1/did'))
      return { state: 'ready' }
    } catch (error) {
      // 404: this user has no wallet yet; 409/503: the platform's wallet agent is not configured or still starting.
      if (error instanceof ApiError && error.status === 404) return { state: 'none' }
      if (error instanceof ApiError && (error.status === 409 || error.status === 503))
        return { state: 'unavailable', message: error.message }
      throw error
    }
  }, [])
  const section =
    SECTIONS.find((item) => (item.path === '' ? props.path === '' : props.path.startsWith(item.path)))?.path ?? ''
  return (
    <div class="layout">
      <nav class="sidenav" aria-label="Wallet">
        <p class="sidenav-title">Your wallet</p>
        <ul>
          {SECTIONS.map((item) => (
            <li key={item.path}>
              <Link to={`/wallet${item.path}`} current={section === item.path}>
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main">
        {wallet.error && <Notice kind="error">{wallet.error}</Notice>}
        {!wallet.data ? (
          wallet.isLoading ? (
            <Loading />
          ) : null
        ) : wallet.data.state === 'none' ? (
          <CreateWallet onCreated={wallet.reload} />
        ) : wallet.data.state === 'unavailable' ? (
          <Page title="Wallet" lead="The platform's wallet service is not available right now.">
            <Notice kind="error">{wallet.data.message}</Notice>
            <Button onClick={wallet.reload}>Try again</Button>
          </Page>
        ) : (
          <WalletSection path={props.path} />
        )}
      </main>
    </div>
  )
}

function CreateWallet(props: { onCreated: () => void }) {
  const [label, setLabel] = useState('My wallet')
  const action = useAction()
  return (
    <Page
      title="Create your wallet"
      lead="A cloud wallet keeps your credentials on the platform. You need one to accept credentials and answer proof requests."
    >
      <Section title="New wallet">
        <form
          class="form"
          onSubmit={(event) => {
            event.preventDefault()
            void action.run(async () => {
              await call(() => api.POST('/v1/create-wallet', { body: { label } }))
              props.onCreated()
            })
          }}
        >
          <TextField
            label="Wallet label"
            value={label}
            onValue={setLabel}
            required
            hint="What issuers and verifiers see when you connect."
          />
          <ActionResult action={action} />
          <Button type="submit" kind="primary" busy={action.isBusy}>
            Create the wallet
          </Button>
        </form>
      </Section>
    </Page>
  )
}

function WalletSection(props: { path: string }) {
  const { path } = props
  if (path === '' || path === '/') return <WalletOverviewPage />
  if (path === '/receive') return <ReceivePage />
  if (path === '/credentials') return <WalletCredentialsPage />
  if (path === '/proofs') return <WalletProofsPage />
  if (path === '/connections') return <WalletConnectionsPage />
  if (path === '/dids') return <WalletDidsPage />
  const connection = match('/connections/:connectionId', path)
  if (connection?.connectionId) return <WalletConnectionPage connectionId={connection.connectionId} />
  return <NotFound />
}
