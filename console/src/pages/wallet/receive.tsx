import { useState } from 'preact/hooks'
import { api, call } from '../../api/client'
import { navigate } from '../../router'
import { ActionResult, Button, Notice, Page, Section, TextArea } from '../../ui/kit'
import { useAction } from '../../ui/hooks'

/** Whether this page was opened through an invitation link (a mailed `/s/<code>` link redirects here with `oob=`). */
function invitationInLocation(): string | undefined {
  const query = new URLSearchParams(location.search)
  return ['oob', 'c_i', 'd_m'].some((name) => query.has(name)) ? location.href : undefined
}

export function ReceivePage() {
  const opened = invitationInLocation()
  const [url, setUrl] = useState(opened ?? '')
  const action = useAction()
  return (
    <Page
      title="Open an invitation"
      lead="Connect to an organization, receive a credential offer or a proof request from its link."
    >
      {opened && (
        <Notice>You followed an invitation link. Accept it to connect with the organization that sent it.</Notice>
      )}
      <Section title="Invitation">
        <form
          class="form"
          onSubmit={(event) => {
            event.preventDefault()
            void action.run(async () => {
              const received = await call(() =>
                api.POST('/v1/receive-invitation-url', {
                  body: { invitationUrl: url.trim(), autoAcceptConnection: true, autoAcceptInvitation: true },
                }),
              )
              const connectionId = received.data?.connectionRecord?.id
              // An invitation carrying an offer or a request lands in those lists; a plain one in the connection.
              navigate(typeof connectionId === 'string' ? `/wallet/connections/${connectionId}` : '/wallet/credentials')
            })
          }}
        >
          <TextArea
            label="Invitation link"
            value={url}
            onValue={setUrl}
            required
            rows={3}
            hint="Paste the link from a mail or a QR code scanner."
            mono
          />
          <ActionResult action={action} />
          <Button type="submit" kind="primary" busy={action.isBusy}>
            Accept the invitation
          </Button>
        </form>
      </Section>
    </Page>
  )
}
