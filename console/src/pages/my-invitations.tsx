import { api, call } from '../api/client'
import { Button, Empty, Loaded, Notice, Page, Section, StateBadge, formatTime } from '../ui/kit'
import { useAction, useLoad } from '../ui/hooks'

/** Invitations to join organizations, sent to the signed-in user's address. */
export function MyInvitationsPage() {
  const list = useLoad(
    async () => (await call(() => api.GET('/v1/users/invitations', { params: { query: { pageSize: 100 } } }))).data,
    [],
  )
  const action = useAction()
  const answer = (invitationId: string, status: 'accepted' | 'rejected') =>
    action.run(async () => {
      await call(() =>
        api.PUT('/v1/users/invitations/{invitationId}', { params: { path: { invitationId } }, body: { status } }),
      )
      list.reload()
      return status === 'accepted' ? 'Invitation accepted: the organization is in your list.' : 'Invitation declined.'
    })
  return (
    <Page title="Invitations" lead="Organizations that invited you to join them.">
      {action.error && <Notice kind="error">{action.error}</Notice>}
      {action.message && <Notice kind="success">{action.message}</Notice>}
      <Section title="Received invitations">
        <Loaded state={list}>
          {(page) =>
            page && page.data.length > 0 ? (
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Organization</th>
                      <th scope="col">Roles</th>
                      <th scope="col">Status</th>
                      <th scope="col">Sent</th>
                      <th scope="col">
                        <span class="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.data.map((invitation) => (
                      <tr key={invitation.id}>
                        <td>{invitation.orgName}</td>
                        <td>{invitation.orgRoles.map((role) => role.name).join(', ')}</td>
                        <td>
                          <StateBadge state={invitation.status} />
                        </td>
                        <td>{formatTime(invitation.createdAt)}</td>
                        <td class="row">
                          {invitation.status === 'pending' && (
                            <>
                              <Button
                                kind="primary"
                                onClick={() => void answer(invitation.id, 'accepted')}
                                disabled={action.isBusy}
                              >
                                Accept<span class="visually-hidden"> {invitation.orgName}</span>
                              </Button>
                              <Button onClick={() => void answer(invitation.id, 'rejected')} disabled={action.isBusy}>
                                Decline<span class="visually-hidden"> {invitation.orgName}</span>
                              </Button>
                            </>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <Empty>No invitations. When an organization invites your address, it shows up here.</Empty>
            )
          }
        </Loaded>
      </Section>
    </Page>
  )
}
