import { api, call } from '../../api/client'
import { CopyField, Json, Loaded, Page, Section } from '../../ui/kit'
import { useLoad } from '../../ui/hooks'
import { CreateCredDef, CredDefTable } from './cred-defs'
import { useOrg } from './org-layout'

interface AttributeDefinition {
  attributeName?: string
  displayName?: string
  schemaDataType?: string
  isRequired?: boolean
  description?: string
}

export function SchemaDetailPage(props: { schemaId: string }) {
  const { org } = useOrg()
  const orgId = org.id
  const schema = useLoad(
    async () =>
      (
        await call(() =>
          api.GET('/v1/orgs/{orgId}/schemas/{schemaId}', { params: { path: { orgId, schemaId: props.schemaId } } }),
        )
      ).data,
    [orgId, props.schemaId],
  )
  return (
    <Loaded state={schema}>
      {(record) =>
        record ? (
          <Page title={`${record.schema.name} ${record.schema.version}`} lead={record.description ?? undefined}>
            <Section title="Attributes">
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Display name</th>
                      <th scope="col">Data type</th>
                      <th scope="col">Required</th>
                    </tr>
                  </thead>
                  <tbody>
                    {((record.attributeDefinitions ?? []) as AttributeDefinition[]).map((attribute) => (
                      <tr key={attribute.attributeName}>
                        <td>{attribute.attributeName}</td>
                        <td>{attribute.displayName}</td>
                        <td>{attribute.schemaDataType}</td>
                        <td>{attribute.isRequired ? 'Yes' : 'No'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <CopyField
                label={record.type === 'JSON' ? 'Public schema URL' : 'Ledger schema id'}
                value={record.schemaId}
              />
              {record.jsonSchema && <Json label="JSON Schema document" value={record.jsonSchema} />}
            </Section>
            {record.type === 'INDY' && record.schemaLedgerId && (
              <IndyDefinitions schemaLedgerId={record.schemaLedgerId} />
            )}
          </Page>
        ) : null
      }
    </Loaded>
  )
}

function IndyDefinitions(props: { schemaLedgerId: string }) {
  const { org } = useOrg()
  const orgId = org.id
  const definitions = useLoad(
    async () =>
      (
        await call(() =>
          api.GET('/v1/orgs/{orgId}/schemas/{schemaId}/cred-defs', {
            params: { path: { orgId, schemaId: props.schemaLedgerId }, query: { pageSize: 100 } },
          }),
        )
      ).data?.data ?? [],
    [orgId, props.schemaLedgerId],
    { pollMs: 2_000, keepPolling: (list) => list.some((definition) => definition.status === 'creating') },
  )
  return (
    <>
      <CreateCredDef schemas={[]} fixedSchema={props.schemaLedgerId} onCreated={definitions.reload} />
      <Section title="Credential definitions of this schema">
        <Loaded state={definitions}>{(list) => <CredDefTable definitions={list} />}</Loaded>
      </Section>
    </>
  )
}
