import { useState } from 'preact/hooks'
import { api, call } from '../../api/client'
import { signIn } from '../../api/session'
import { ActionResult, Button, Link, Notice, Page, Steps, TextField } from '../../ui/kit'
import { useAction } from '../../ui/hooks'

const STEPS = ['E-mail address', 'Code from the mail', 'Your profile']

/** Sign-up (spec: Authentication 3): the address gets a code by mail, the code verifies it, then the profile. */
export function SignUpPage() {
  const [step, setStep] = useState(0)
  const [email, setEmail] = useState('')
  const [code, setCode] = useState('')
  const [firstName, setFirstName] = useState('')
  const [lastName, setLastName] = useState('')
  const [password, setPassword] = useState('')
  const action = useAction()

  const sendCode = () =>
    action.run(async () => {
      await call(() => api.POST('/v1/auth/verification-mail', { body: { email } }))
      setStep(1)
      return `A code was sent to ${email}. It may take a minute to arrive.`
    })

  return (
    <Page
      title="Create an account"
      lead="Three short steps: your address, the code we mail to it, your name and password."
    >
      <Steps steps={STEPS} current={step} />
      {step === 0 && (
        <form
          class="card form"
          onSubmit={(event) => {
            event.preventDefault()
            void sendCode()
          }}
        >
          <TextField
            label="E-mail address"
            type="email"
            value={email}
            onValue={setEmail}
            required
            autoComplete="email"
          />
          <ActionResult action={action} />
          <Button type="submit" kind="primary" busy={action.isBusy}>
            Send the code
          </Button>
        </form>
      )}
      {step === 1 && (
        <form
          class="card form"
          onSubmit={(event) => {
            event.preventDefault()
            void action.run(async () => {
              await call(() =>
                api.GET('/v1/auth/verify', { params: { query: { email, verificationCode: code.trim() } } }),
              )
              setStep(2)
              return 'Your address is verified.'
            })
          }}
        >
          <TextField
            label="Verification code"
            value={code}
            onValue={setCode}
            required
            inputMode="numeric"
            autoComplete="one-time-code"
            hint={`The digits from the mail sent to ${email}.`}
          />
          <ActionResult action={action} />
          <div class="row">
            <Button type="submit" kind="primary" busy={action.isBusy}>
              Verify
            </Button>
            <Button onClick={() => void sendCode()} disabled={action.isBusy}>
              Send a new code
            </Button>
          </div>
        </form>
      )}
      {step === 2 && (
        <form
          class="card form"
          onSubmit={(event) => {
            event.preventDefault()
            void action.run(async () => {
              await call(() =>
                api.POST('/v1/auth/signup', { body: { email, firstName, lastName, password, isEmailVerified: true } }),
              )
              const failure = await signIn(email, password)
              if (failure) throw new Error(failure)
            })
          }}
        >
          <Notice kind="success">{email} is verified.</Notice>
          <TextField label="First name" value={firstName} onValue={setFirstName} required autoComplete="given-name" />
          <TextField label="Last name" value={lastName} onValue={setLastName} required autoComplete="family-name" />
          <TextField
            label="Password"
            type="password"
            value={password}
            onValue={setPassword}
            required
            autoComplete="new-password"
            hint="8 to 128 characters, with at least one letter and one digit."
          />
          <ActionResult action={action} />
          <Button type="submit" kind="primary" busy={action.isBusy}>
            Create the account
          </Button>
        </form>
      )}
      <p>
        Already have an account? <Link to="/signin">Sign in</Link>.
      </p>
    </Page>
  )
}
