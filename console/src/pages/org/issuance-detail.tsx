import { api, call } from '../../api/client'
import { Json, Loaded, Page, Section, StateBadge, formatTime, isFinalState } from '../../ui/kit'
import { useLoad } from '../../ui/hooks'
import { useOrg } from './org-layout'

export function IssuanceDetailPage(props: { recordId: string }) {
  const { org } = useOrg()
  const record = useLoad(
    async () =>
      (
        await call(() =>
          api.GET('/v1/orgs/{orgId}/credentials/{credentialRecordId}', {
            params: { path: { orgId: org.id, credentialRecordId: props.recordId } },
          }),
        )
      ).data,
    [org.id, props.recordId],
    { pollMs: 2_000, keepPolling: (value) => !value || !isFinalState(value.state) },
  )
  return (
    <Loaded state={record}>
      {(value) =>
        value ? (
          <Page title="Issuance record" actions={<StateBadge state={value.state} />}>
            <Section title="Details">
              <dl class="facts">
                <dt>Record id</dt>
                <dd>
                  <code class="break">{value.id}</code>
                </dd>
                <dt>Type</dt>
                <dd>{value.credentialType}</dd>
                <dt>Credential types</dt>
                <dd>{value.credentialSummary?.types.join(', ') ?? '—'}</dd>
                <dt>Attributes</dt>
                <dd>{value.credentialSummary?.attributeNames.join(', ') ?? '—'}</dd>
                <dt>Connection</dt>
                <dd>
                  <code class="break">{value.connectionId ?? '—'}</code>
                </dd>
                <dt>E-mail</dt>
                <dd>{value.emailId ?? '—'}</dd>
                <dt>Error</dt>
                <dd>{value.errorMessage ?? '—'}</dd>
                <dt>Updated</dt>
                <dd>{formatTime(value.updatedAt)}</dd>
              </dl>
              {value.agentDetail && <Json label="Exchange data from the agent" value={value.agentDetail} />}
            </Section>
          </Page>
        ) : null
      }
    </Loaded>
  )
}
