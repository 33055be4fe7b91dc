import { Link, Page } from '../ui/kit'

export function NotFound() {
  return (
    <Page title="Page not found" lead="The console has no page at this address.">
      <p>
        Go to your <Link to="/orgs">organizations</Link> or your <Link to="/wallet">wallet</Link>.
      </p>
    </Page>
  )
}
