import { api, call, type Schemas } from '../../api/client'
import { ActionResult, Button, Empty, Loaded, Page, Section, StateBadge, formatTime } from '../../ui/kit'
import { useAction, useLoad } from '../../ui/hooks'
import { requestPreview } from './exchange-data'

type ProofRecord = Schemas['WalletProofRecord']

export function WalletProofsPage() {
  const proofs = useLoad(async () => (await call(() => api.GET('/v1/proofs'))).data ?? [], [], { pollMs: 3_000 })
  return (
    <Page title="Proof requests" lead="Before you share, each request shows exactly what the verifier will learn.">
      <Loaded state={proofs}>{(list) => <ProofList records={list} onChange={proofs.reload} />}</Loaded>
    </Page>
  )
}

export function ProofList(props: { records: ProofRecord[]; onChange: () => void }) {
  const waiting = props.records.filter((record) => record.state === 'request-received')
  const others = props.records.filter((record) => record.state !== 'request-received')
  return (
    <>
      <Section title="Waiting for your answer">
        {waiting.length === 0 ? (
          <Empty>
            No proof requests waiting. They arrive from verifiers you are connected to, or through their links.
          </Empty>
        ) : (
          <ul class="plain">
            {waiting.map((record) => (
              <li key={record.id}>
                <ProofCard record={record} onChange={props.onChange} />
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Answered">
        {others.length === 0 ? (
          <Empty>Nothing answered yet.</Empty>
        ) : (
          <ul class="plain">
            {others.map((record) => (
              <li key={record.id}>
                <ProofCard record={record} onChange={props.onChange} />
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  )
}

function ProofCard(props: { record: ProofRecord; onChange: () => void }) {
  const { record } = props
  const detail = useLoad(
    async () =>
      requestPreview(
        (
          await call(() =>
            api.GET('/v1/proofs/{proofRecordId}/format-data', { params: { path: { proofRecordId: record.id } } }),
          )
        ).data ?? {},
      ),
    [record.id],
  )
  const action = useAction()
  return (
    <article class="card inner" aria-label={`Proof request, ${record.state}`}>
      <div class="card-head">
        <h3>Proof request</h3>
        <StateBadge state={record.state} />
      </div>
      <Loaded state={detail}>
        {(preview) => (
          <>
            {preview.purpose && <p>Purpose: {preview.purpose}</p>}
            <h4>{preview.format === 'presentation-exchange' ? 'The verifier asks for' : 'The verifier will see'}</h4>
            {preview.disclosed.length > 0 ? (
              <ul class="disclosed">
                {preview.disclosed.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            ) : (
              <p class="muted">No attribute values.</p>
            )}
            {preview.format === 'presentation-exchange' && (
              <p class="hint">
                This kind of credential is shared whole: the verifier sees every attribute of the credential the wallet
                presents, not only these.
              </p>
            )}
            {preview.proven.length > 0 && (
              <>
                <h4>Proven without showing the value</h4>
                <ul class="disclosed">
                  {preview.proven.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              </>
            )}
            {record.state === 'request-received' && (
              <Button
                kind="primary"
                busy={action.isBusy}
                onClick={() =>
                  void action.run(async () => {
                    await call(() => api.POST('/v1/proofs/accept-request', { body: { proofRecordId: record.id } }))
                    props.onChange()
                    return 'Shared: the verifier now checks the proof.'
                  })
                }
              >
                Share
              </Button>
            )}
            <ActionResult action={action} />
          </>
        )}
      </Loaded>
      <p class="muted small">Received {formatTime(record.createdAt ?? null)}</p>
    </article>
  )
}
