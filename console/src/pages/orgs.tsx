import { useState } from 'preact/hooks'
import { api, call } from '../api/client'
import { navigate } from '../router'
import { ActionResult, Button, Empty, Link, Loaded, Page, Section, TextArea, TextField } from '../ui/kit'
import { useAction, useLoad } from '../ui/hooks'

export function OrgsPage() {
  const orgs = useLoad(
    async () => (await call(() => api.GET('/v1/orgs', { params: { query: { pageSize: 100 } } }))).data,
    [],
  )
  const invitations = useLoad(
    async () =>
      (await call(() => api.GET('/v1/users/invitations', { params: { query: { pageSize: 100 } } }))).data?.data.filter(
        (invitation) => invitation.status === 'pending',
      ) ?? [],
    [],
  )
  return (
    <Page
      title="Organizations"
      lead="The organizations you belong to. Each one issues and verifies credentials with its own agent."
    >
      {(invitations.data?.length ?? 0) > 0 && (
        <p class="notice info">
          You have {invitations.data?.length} pending invitation{invitations.data?.length === 1 ? '' : 's'} to join an
          organization: <Link to="/invitations">review them</Link>.
        </p>
      )}
      <Section title="Your organizations">
        <Loaded state={orgs}>
          {(page) =>
            page && page.data.length > 0 ? (
              <ul class="tiles">
                {page.data.map((org) => (
                  <li key={org.id}>
                    <Link to={`/orgs/${org.id}`} class="tile">
                      {org.logoUrl ? (
                        <img src={org.logoUrl} alt="" class="org-logo" />
                      ) : (
                        <span class="org-logo placeholder" aria-hidden="true">
                          {org.name.slice(0, 1)}
                        </span>
                      )}
                      <span>
                        <strong>{org.name}</strong>
                        <span class="muted block">{org.userOrgRoles.map((role) => role.orgRole.name).join(', ')}</span>
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <Empty>
                You are not in any organization yet. Create one below, or accept an invitation from an existing one.
              </Empty>
            )
          }
        </Loaded>
      </Section>
      <CreateOrganization />
    </Page>
  )
}

function CreateOrganization() {
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [website, setWebsite] = useState('')
  const action = useAction()
  return (
    <Section title="Create an organization">
      <form
        class="form"
        onSubmit={(event) => {
          event.preventDefault()
          void action.run(async () => {
            const created = await call(() =>
              api.POST('/v1/orgs', { body: { name, description, ...(website ? { website } : {}) } }),
            )
            if (created.data) navigate(`/orgs/${created.data.id}/agent`)
          })
        }}
      >
        <TextField label="Name" value={name} onValue={setName} required hint="2 to 200 characters." />
        <TextArea
          label="Description"
          value={description}
          onValue={setDescription}
          required
          hint="2 to 1000 characters."
          rows={3}
        />
        <TextField label="Website" type="url" value={website} onValue={setWebsite} placeholder="https://example.com" />
        <ActionResult action={action} />
        <Button type="submit" kind="primary" busy={action.isBusy}>
          Create
        </Button>
      </form>
    </Section>
  )
}
