import { useState } from 'preact/hooks'
import { api, call } from '../../api/client'
import { ActionResult, Button, Empty, Loaded, Page, Section, TextField, formatTime } from '../../ui/kit'
import { useAction, useLoad } from '../../ui/hooks'
import { useOrg } from './org-layout'

/** Ecosystems (behind the platform's feature flag; the section shows only when it is on). */
export function EcosystemsPage() {
  const { org } = useOrg()
  const ecosystems = useLoad(
    async () =>
      (await call(() => api.GET('/v1/ecosystem', { params: { query: { orgId: org.id, pageSize: 100 } } }))).data,
    [org.id],
  )
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [tags, setTags] = useState('')
  const action = useAction()
  return (
    <Page title="Ecosystems" lead="Trust frameworks of several organizations, led by one of them.">
      <Section title="Ecosystems of this organization">
        <Loaded state={ecosystems}>
          {(page) =>
            page && page.data.length > 0 ? (
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Role</th>
                      <th scope="col">Tags</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.data.map((ecosystem) => (
                      <tr key={ecosystem.id}>
                        <td>{ecosystem.name}</td>
                        <td>{ecosystem.orgRole}</td>
                        <td>{ecosystem.tags ?? ''}</td>
                        <td>{formatTime(ecosystem.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <Empty>This organization is in no ecosystem. Create one below to lead it, or accept an invitation.</Empty>
            )
          }
        </Loaded>
      </Section>
      <Section title="Create an ecosystem">
        <form
          class="form"
          onSubmit={(event) => {
            event.preventDefault()
            void action.run(async () => {
              await call(() =>
                api.POST('/v1/ecosystem', {
                  params: { query: { orgId: org.id } },
                  body: { name, description, ...(tags ? { tags } : {}) },
                }),
              )
              ecosystems.reload()
              return 'Ecosystem created; this organization leads it.'
            })
          }}
        >
          <TextField label="Name" value={name} onValue={setName} required hint="2 to 50 characters." />
          <TextField
            label="Description"
            value={description}
            onValue={setDescription}
            required
            hint="2 to 255 characters."
          />
          <TextField label="Tags" value={tags} onValue={setTags} hint="Comma-separated." />
          <ActionResult action={action} />
          <Button type="submit" kind="primary" busy={action.isBusy}>
            Create
          </Button>
        </form>
      </Section>
    </Page>
  )
}
