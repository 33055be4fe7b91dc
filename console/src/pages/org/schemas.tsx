import { api, call } from '../../api/client'
import { Empty, Link, Loaded, Page, Section, formatTime } from '../../ui/kit'
import { useLoad } from '../../ui/hooks'
import { useOrg } from './org-layout'

export function SchemasPage() {
  const { org } = useOrg()
  const orgId = org.id
  const schemas = useLoad(
    async () =>
      (await call(() => api.GET('/v1/orgs/{orgId}/schemas', { params: { path: { orgId }, query: { pageSize: 100 } } })))
        .data,
    [orgId],
  )
  return (
    <Page
      title="Schemas"
      lead="A schema names the attributes a credential carries. JSON schemas back JSON-LD credentials; INDY schemas back AnonCreds credentials."
      actions={
        <Link to={`/orgs/${orgId}/schemas/new`} class="button primary">
          New schema
        </Link>
      }
    >
      <Section title="Published schemas">
        <Loaded state={schemas}>
          {(page) =>
            page && page.data.length > 0 ? (
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Version</th>
                      <th scope="col">Type</th>
                      <th scope="col">Attributes</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.data.map((schema) => (
                      <tr key={schema.id}>
                        <td>
                          <Link to={`/orgs/${orgId}/schemas/${schema.id}`}>{schema.name}</Link>
                        </td>
                        <td>{schema.version}</td>
                        <td>{schema.type}</td>
                        <td>{schema.attributes.join(', ')}</td>
                        <td>{formatTime(schema.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <Empty>
                No schemas yet. <Link to={`/orgs/${orgId}/schemas/new`}>Publish the first one</Link> with the form
                builder.
              </Empty>
            )
          }
        </Loaded>
      </Section>
    </Page>
  )
}
