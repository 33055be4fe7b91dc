import { api, call } from '../../api/client'
import {
  ActionResult,
  Button,
  FactList,
  Json,
  Loaded,
  Notice,
  Page,
  Section,
  StateBadge,
  formatTime,
  isFinalState,
} from '../../ui/kit'
import { useAction, useLoad } from '../../ui/hooks'
import { useOrg } from './org-layout'

export function ProofDetailPage(props: { proofId: string }) {
  const { org } = useOrg()
  const path = { orgId: org.id, proofId: props.proofId }
  const proof = useLoad(
    async () => (await call(() => api.GET('/v1/orgs/{orgId}/proofs/{proofId}', { params: { path } }))).data,
    [org.id, props.proofId],
    { pollMs: 2_000, keepPolling: (value) => !value || !isFinalState(value.state) },
  )
  const isAnswered = proof.data !== undefined && ['presentation-received', 'done'].includes(proof.data.state)
  const verified = useLoad(
    async () =>
      isAnswered
        ? (await call(() => api.GET('/v1/orgs/{orgId}/verified-proofs/{proofId}', { params: { path } }))).data
        : undefined,
    [org.id, props.proofId, isAnswered, proof.data?.state],
  )
  const action = useAction()
  return (
    <Loaded state={proof}>
      {(value) =>
        value ? (
          <Page title="Proof request" actions={<StateBadge state={value.state} />}>
            <Section title="Status">
              <dl class="facts">
                <dt>Format</dt>
                <dd>{value.requestType ?? '—'}</dd>
                <dt>Connection</dt>
                <dd>
                  <code class="break">{value.connectionId ?? 'out of band'}</code>
                </dd>
                <dt>Verified</dt>
                <dd>{value.isVerified === null ? 'Not yet' : value.isVerified ? 'Yes' : 'No'}</dd>
                <dt>Updated</dt>
                <dd>{formatTime(value.updatedAt)}</dd>
              </dl>
              {value.errorMessage && <Notice kind="error">{value.errorMessage}</Notice>}
              {value.state === 'request-sent' && (
                <p class="muted" role="status">
                  Waiting for the holder to answer…
                </p>
              )}
              {value.state === 'presentation-received' && (
                <Button
                  kind="primary"
                  busy={action.isBusy}
                  onClick={() =>
                    void action.run(async () => {
                      await call(() => api.POST('/v1/orgs/{orgId}/proofs/{proofId}/verify', { params: { path } }))
                      proof.reload()
                      return 'Presentation verified'
                    })
                  }
                >
                  Verify the presentation
                </Button>
              )}
              <ActionResult action={action} />
            </Section>
            {verified.data && (
              <Section title="Result">
                <p>
                  Verification:{' '}
                  <StateBadge state={verified.data.isVerified ? 'verified' : verified.data.verificationStatus} />
                </p>
                <FactList
                  entries={
                    verified.data.revealedAttributes.length > 0 || verified.data.predicates.length > 0
                      ? [
                          ...verified.data.revealedAttributes.map((attribute): [string, string] => [
                            attribute.name,
                            attribute.value,
                          ]),
                          ...verified.data.predicates.map((predicate): [string, string] => [
                            predicate.statement,
                            predicate.satisfied ? 'Proven' : 'Not proven',
                          ]),
                        ]
                      : verified.data.revealed.flatMap((credential) =>
                          Object.entries(credential).map(([name, revealed]): [string, string] => [
                            name,
                            typeof revealed === 'string' ? revealed : JSON.stringify(revealed),
                          ]),
                        )
                  }
                />
              </Section>
            )}
            {value.proofData && <Json label="Presentation data" value={value.proofData} />}
          </Page>
        ) : null
      }
    </Loaded>
  )
}
