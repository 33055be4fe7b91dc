import { useState } from 'preact/hooks'
import { api, call, type Schemas } from '../../api/client'
import { ActionResult, Button, Empty, Loaded, Page, Section, StateBadge, TextField, formatTime } from '../../ui/kit'
import { useAction, useLoad } from '../../ui/hooks'
import { useOrg } from './org-layout'

/** Roles a person can be given; the platform-wide ones are not an organization's to hand out. */
const ASSIGNABLE = ['owner', 'admin', 'issuer', 'verifier', 'member', 'holder']

function RolePicker(props: {
  roles: Schemas['OrgRole'][]
  chosen: string[]
  onChosen: (ids: string[]) => void
  legend: string
}) {
  return (
    <fieldset class="field">
      <legend>{props.legend}</legend>
      <div class="row wrap">
        {props.roles
          .filter((role) => ASSIGNABLE.includes(role.name))
          .map((role) => (
            <label key={role.id} class="choice">
              <input
                type="checkbox"
                checked={props.chosen.includes(role.id)}
                onChange={(event) =>
                  props.onChosen(
                    event.currentTarget.checked
                      ? [...props.chosen, role.id]
                      : props.chosen.filter((id) => id !== role.id),
                  )
                }
              />
              {role.name}
            </label>
          ))}
      </div>
    </fieldset>
  )
}

export function MembersPage() {
  const { org } = useOrg()
  const orgId = org.id
  const path = { orgId }
  const roles = useLoad(
    async () => (await call(() => api.GET('/v1/orgs/{orgId}/roles', { params: { path } }))).data ?? [],
    [orgId],
  )
  const members = useLoad(
    async () =>
      (await call(() => api.GET('/v1/orgs/{orgId}/users', { params: { path, query: { pageSize: 100 } } }))).data,
    [orgId],
  )
  const invitations = useLoad(
    async () =>
      (await call(() => api.GET('/v1/orgs/{orgId}/invitations', { params: { path, query: { pageSize: 100 } } }))).data,
    [orgId],
    { pollMs: 10_000 },
  )
  const [editing, setEditing] = useState<{ userId: string; roleIds: string[] } | undefined>(undefined)
  const [email, setEmail] = useState('')
  const [inviteRoles, setInviteRoles] = useState<string[]>([])
  const action = useAction()
  const invite = useAction()

  return (
    <Page title="Members" lead="Who works in this organization, with which roles, and the invitations sent.">
      <ActionResult action={action} />
      <Section title="Members">
        <Loaded state={members}>
          {(page) =>
            page && page.data.length > 0 ? (
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">E-mail</th>
                      <th scope="col">Roles</th>
                      <th scope="col">
                        <span class="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.data.map((member) => (
                      <tr key={member.id}>
                        <td>
                          {member.firstName} {member.lastName}
                        </td>
                        <td>{member.email}</td>
                        <td>
                          {editing?.userId === member.id ? (
                            <RolePicker
                              legend={`Roles of ${member.email}`}
                              roles={roles.data ?? []}
                              chosen={editing.roleIds}
                              onChosen={(roleIds) => setEditing({ userId: member.id, roleIds })}
                            />
                          ) : (
                            member.userOrgRoles.map((role) => role.orgRole.name).join(', ')
                          )}
                        </td>
                        <td class="row">
                          {editing?.userId === member.id ? (
                            <>
                              <Button
                                kind="primary"
                                busy={action.isBusy}
                                onClick={() =>
                                  void action.run(async () => {
                                    await call(() =>
                                      api.PUT('/v1/orgs/{orgId}/user-roles/{userId}', {
                                        params: { path: { orgId, userId: member.id } },
                                        body: { orgRoleId: editing.roleIds },
                                      }),
                                    )
                                    setEditing(undefined)
                                    members.reload()
                                    return `Roles of ${member.email} updated`
                                  })
                                }
                              >
                                Save roles
                              </Button>
                              <Button onClick={() => setEditing(undefined)}>Cancel</Button>
                            </>
                          ) : (
                            <Button
                              onClick={() =>
                                setEditing({
                                  userId: member.id,
                                  roleIds: member.userOrgRoles.map((role) => role.orgRole.id),
                                })
                              }
                            >
                              Change roles<span class="visually-hidden"> of {member.email}</span>
                            </Button>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <Empty>No members yet.</Empty>
            )
          }
        </Loaded>
      </Section>
      <Section title="Invite people">
        <form
          class="form"
          onSubmit={(event) => {
            event.preventDefault()
            void invite.run(async () => {
              const addresses = email.split(/[\s,;]+/).filter(Boolean)
              await call(() =>
                api.POST('/v1/orgs/{orgId}/invitations', {
                  params: { path },
                  body: { invitations: addresses.map((address) => ({ email: address, orgRoleId: inviteRoles })) },
                }),
              )
              setEmail('')
              invitations.reload()
              return `Invitation sent to ${addresses.join(', ')}`
            })
          }}
        >
          <TextField
            label="E-mail addresses"
            value={email}
            onValue={setEmail}
            required
            hint="One or more, separated by commas or spaces."
          />
          <RolePicker legend="Roles" roles={roles.data ?? []} chosen={inviteRoles} onChosen={setInviteRoles} />
          <ActionResult action={invite} />
          <Button type="submit" kind="primary" busy={invite.isBusy} disabled={inviteRoles.length === 0}>
            Send invitations
          </Button>
        </form>
      </Section>
      <Section title="Invitations sent">
        <Loaded state={invitations}>
          {(page) =>
            page && page.data.length > 0 ? (
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">E-mail</th>
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
                        <td>{invitation.email}</td>
                        <td>{invitation.orgRoles.map((role) => role.name).join(', ')}</td>
                        <td>
                          <StateBadge state={invitation.status} />
                        </td>
                        <td>{formatTime(invitation.createdAt)}</td>
                        <td>
                          {invitation.status === 'pending' && (
                            <Button
                              onClick={() =>
                                void action.run(async () => {
                                  await call(() =>
                                    api.DELETE('/v1/orgs/{orgId}/invitations/{invitationId}', {
                                      params: { path: { orgId, invitationId: invitation.id } },
                                    }),
                                  )
                                  invitations.reload()
                                  return `Invitation of ${invitation.email} withdrawn`
                                })
                              }
                            >
                              Withdraw<span class="visually-hidden"> the invitation of {invitation.email}</span>
                            </Button>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <Empty>No invitations sent. Invite people above; they get a mail with a link.</Empty>
            )
          }
        </Loaded>
      </Section>
    </Page>
  )
}
