import { useState } from 'preact/hooks'
import { signIn } from '../../api/session'
import { ActionResult, Button, Link, Page, TextField } from '../../ui/kit'
import { useAction } from '../../ui/hooks'

export function SignInPage() {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const action = useAction()
  return (
    <Page title="Sign in" lead="Sign in to manage your organizations or open your wallet.">
      <form
        class="card form"
        onSubmit={(event) => {
          event.preventDefault()
          void action.run(async () => {
            const failure = await signIn(email, password)
            if (failure) throw new Error(failure)
          })
        }}
      >
        <TextField
          label="E-mail address"
          type="email"
          value={email}
          onValue={setEmail}
          required
          autoComplete="username"
        />
        <TextField
          label="Password"
          type="password"
          value={password}
          onValue={setPassword}
          required
          autoComplete="current-password"
        />
        <ActionResult action={action} />
        <Button type="submit" kind="primary" busy={action.isBusy}>
          Sign in
        </Button>
      </form>
      <p>
        New here? <Link to="/signup">Create an account</Link>.
      </p>
    </Page>
  )
}
