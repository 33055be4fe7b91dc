import { useEffect, useState } from 'preact/hooks'
import { onSessionChange, restoreSession, sessionState, signOut } from './api/session'
import { currentPath, match, navigate, usePath } from './router'
import { Link, Loading } from './ui/kit'
import { applyTheme, storedTheme, type Theme } from './ui/theme'
import { SignInPage } from './pages/auth/sign-in'
import { SignUpPage } from './pages/auth/sign-up'
import { OrgsPage } from './pages/orgs'
import { MyInvitationsPage } from './pages/my-invitations'
import { OrgLayout } from './pages/org/org-layout'
import { WalletLayout } from './pages/wallet/wallet-layout'
import { NotFound } from './pages/not-found'

/** Where to go back to after signing in (a wallet invitation link opened while signed out). In memory only. */
let returnTo: string | undefined

const PUBLIC_PATHS = ['/signin', '/signup']

export function App() {
  const [session, setSession] = useState(sessionState())
  const path = usePath()

  useEffect(() => {
    const stop = onSessionChange(setSession)
    void restoreSession()
    return stop
  }, [])

  useEffect(() => {
    if (!session.isReady) return
    if (!session.isSignedIn && !PUBLIC_PATHS.includes(path)) {
      returnTo = path === '/' ? undefined : `${path}${location.search}`
      navigate('/signin', { replace: true })
    } else if (session.isSignedIn && (PUBLIC_PATHS.includes(path) || path === '/')) {
      navigate(returnTo ?? '/orgs', { replace: true })
      returnTo = undefined
    }
  }, [session, path])

  if (!session.isReady) {
    return (
      <main id="main" class="centered">
        <Loading label="Opening the console…" />
      </main>
    )
  }
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <TopBar isSignedIn={session.isSignedIn} path={path} />
      {session.isSignedIn ? <SignedIn path={path} /> : <SignedOut path={path} />}
    </>
  )
}

function SignedOut(props: { path: string }) {
  return (
    <main id="main" class="narrow">
      {props.path === '/signup' ? <SignUpPage /> : <SignInPage />}
    </main>
  )
}

function SignedIn(props: { path: string }) {
  const { path } = props
  if (path === '/orgs')
    return (
      <main id="main">
        <OrgsPage />
      </main>
    )
  if (path === '/invitations')
    return (
      <main id="main">
        <MyInvitationsPage />
      </main>
    )
  const org = match('/orgs/:orgId', path.split('/').slice(0, 3).join('/'))
  if (org?.orgId) return <OrgLayout orgId={org.orgId} path={path.split('/').slice(3).join('/')} />
  if (path === '/wallet' || path.startsWith('/wallet/')) return <WalletLayout path={path.slice('/wallet'.length)} />
  if (PUBLIC_PATHS.includes(path) || path === '/')
    return (
      <main id="main">
        <Loading />
      </main>
    )
  return (
    <main id="main">
      <NotFound />
    </main>
  )
}

function TopBar(props: { isSignedIn: boolean; path: string }) {
  const [theme, setTheme] = useState<Theme>(storedTheme())
  const nextTheme: Theme = theme === 'system' ? 'dark' : theme === 'dark' ? 'light' : 'system'
  return (
    <header class="topbar">
      <Link to={props.isSignedIn ? '/orgs' : '/signin'} class="brand">
        <span aria-hidden="true" class="logo" />
        idplane <span class="muted">console</span>
      </Link>
      {props.isSignedIn && (
        <nav aria-label="Main" class="mainnav">
          <Link to="/orgs" current={props.path.startsWith('/orgs')}>
            Organizations
          </Link>
          <Link to="/wallet" current={props.path.startsWith('/wallet')}>
            Wallet
          </Link>
          <Link to="/invitations" current={props.path === '/invitations'}>
            Invitations
          </Link>
        </nav>
      )}
      <div class="topbar-end">
        <button
          type="button"
          class="button ghost"
          onClick={() => {
            applyTheme(nextTheme)
            setTheme(nextTheme)
          }}
          title={`Switch to the ${nextTheme === 'system' ? "system's" : nextTheme} theme`}
        >
          Theme: {theme === 'dark' ? 'dark' : theme === 'light' ? 'light' : 'auto'}
        </button>
        {props.isSignedIn && (
          <button
            type="button"
            class="button ghost"
            onClick={async () => {
              await signOut()
              if (currentPath() !== '/signin') navigate('/signin', { replace: true })
            }}
          >
            Sign out
          </button>
        )}
      </div>
    </header>
  )
}
