import { useState } from 'preact/hooks'
import { api, call, type Schemas } from '../../api/client'
import {
  ActionResult,
  Button,
  CheckboxField,
  CopyField,
  Empty,
  Link,
  Loaded,
  Page,
  Section,
  StateBadge,
  TextField,
  formatTime,
} from '../../ui/kit'
import { useAction, useLoad } from '../../ui/hooks'
import { QrCode } from '../../ui/qr-code'
import { useOrg } from './org-layout'

export function ConnectionsPage() {
  const { org } = useOrg()
  const orgId = org.id
  const connections = useLoad(
    async () =>
      (
        await call(() =>
          api.GET('/v1/orgs/{orgId}/connections', { params: { path: { orgId }, query: { pageSize: 100 } } }),
        )
      ).data,
    [orgId],
    { pollMs: 3_000 },
  )
  return (
    <Page
      title="Connections"
      lead="DIDComm connections with holders and other organizations. Invite with a link or a QR code."
    >
      <CreateInvitation />
      <Section title="Connections">
        <Loaded state={connections}>
          {(page) =>
            page && page.connections.length > 0 ? (
              <ConnectionTable orgId={orgId} connections={page.connections} />
            ) : (
              <Empty>
                No connections yet. Create an invitation above and send its link, or show its QR code to a wallet.
              </Empty>
            )
          }
        </Loaded>
      </Section>
    </Page>
  )
}

function ConnectionTable(props: { orgId: string; connections: Schemas['ConnectionListItem'][] }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Their label</th>
            <th scope="col">State</th>
            <th scope="col">Their DID</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {props.connections.map((connection) => (
            <tr key={connection.id}>
              <td>
                <Link to={`/orgs/${props.orgId}/connections/${connection.id}`}>
                  {connection.theirLabel ?? 'Unnamed connection'}
                </Link>
              </td>
              <td>
                <StateBadge state={connection.state} />
              </td>
              <td>
                <code class="break">{connection.theirDid ?? '—'}</code>
              </td>
              <td>{formatTime(connection.updatedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function CreateInvitation() {
  const { org } = useOrg()
  const [label, setLabel] = useState(org.name)
  const [isMultiUse, setMultiUse] = useState(false)
  const [invitation, setInvitation] = useState<Schemas['ConnectionInvitation'] | undefined>(undefined)
  const action = useAction()
  return (
    <Section title="Invite a holder">
      <form
        class="form"
        onSubmit={(event) => {
          event.preventDefault()
          void action.run(async () => {
            const created = await call(() =>
              api.POST('/v1/orgs/{orgId}/connections', {
                params: { path: { orgId: org.id } },
                body: { label, multiUseInvitation: isMultiUse, autoAcceptConnection: true, isShortenUrl: true },
              }),
            )
            setInvitation(created.data)
          })
        }}
      >
        <TextField label="Label shown to the holder" value={label} onValue={setLabel} />
        <CheckboxField
          label="Reusable invitation"
          checked={isMultiUse}
          onChecked={setMultiUse}
          hint="Several holders can connect with the same link."
        />
        <ActionResult action={action} />
        <Button type="submit" kind="primary" busy={action.isBusy}>
          Create an invitation
        </Button>
      </form>
      {invitation && (
        <div class="invitation">
          <QrCode text={invitation.invitationUrl} label="QR code of the invitation link" />
          <CopyField label="Invitation link" value={invitation.invitationUrl} />
        </div>
      )}
    </Section>
  )
}
