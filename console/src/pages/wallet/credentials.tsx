import { api, call, type Schemas } from '../../api/client'
import { ActionResult, Button, Empty, FactList, Loaded, Page, Section, StateBadge, formatTime } from '../../ui/kit'
import { useAction, useLoad } from '../../ui/hooks'
import { offerPreview } from './exchange-data'

type CredentialRecord = Schemas['WalletCredentialRecord']

/**
 * The DID a JSON-LD credential is bound to when its offer names no subject: the wallet's first did:key, made on first
 * use. Without a subject DID the wallet could not sign a presentation of the credential later.
 */
async function holderDid(): Promise<string> {
  const dids = (await call(() => api.GET('/v1/did'))).data ?? []
  const existing = dids.find((entry) => entry.did.startsWith('did:key:'))
  if (existing) return existing.did
  const created = await call(() => api.POST('/v1/did', { body: { method: 'key', keyType: 'ed25519' } }))
  if (!created.data) throw new Error('The wallet could not create a DID for the credential')
  return created.data.did
}

export function WalletCredentialsPage() {
  const credentials = useLoad(async () => (await call(() => api.GET('/v1/credential'))).data ?? [], [], {
    pollMs: 3_000,
  })
  return (
    <Page title="Credentials" lead="Offers waiting for you come first; accept one to receive the credential.">
      <Loaded state={credentials}>{(list) => <CredentialList records={list} onChange={credentials.reload} />}</Loaded>
    </Page>
  )
}

export function CredentialList(props: { records: CredentialRecord[]; onChange: () => void }) {
  const offers = props.records.filter((record) => record.state === 'offer-received')
  const others = props.records.filter((record) => record.state !== 'offer-received')
  return (
    <>
      <Section title="Offers">
        {offers.length === 0 ? (
          <Empty>No offers waiting. Open an issuer's invitation link to receive one.</Empty>
        ) : (
          <ul class="plain">
            {offers.map((record) => (
              <li key={record.id}>
                <CredentialCard record={record} onChange={props.onChange} />
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Your credentials">
        {others.length === 0 ? (
          <Empty>No credentials yet.</Empty>
        ) : (
          <ul class="plain">
            {others.map((record) => (
              <li key={record.id}>
                <CredentialCard record={record} onChange={props.onChange} />
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  )
}

/** One credential exchange with what it holds (read from the wallet's format data). */
function CredentialCard(props: { record: CredentialRecord; onChange: () => void }) {
  const { record } = props
  const detail = useLoad(
    async () =>
      offerPreview(
        (
          await call(() =>
            api.GET('/v1/credential/{credentialRecordId}/format-data', {
              params: { path: { credentialRecordId: record.id } },
            }),
          )
        ).data ?? {},
      ),
    [record.id, record.state],
  )
  const action = useAction()
  const title = detail.data?.types.join(', ') || 'Credential'
  return (
    <article class="card inner" aria-label={`${title}, ${record.state}`}>
      <div class="card-head">
        <h3>{title}</h3>
        <StateBadge state={record.state} />
      </div>
      <Loaded state={detail}>
        {(preview) => (
          <>
            {preview.issuer && (
              <p class="muted">
                Issuer: <code class="break">{preview.issuer}</code>
              </p>
            )}
            {preview.attributes.length > 0 ? (
              <FactList entries={preview.attributes} />
            ) : (
              <p class="muted">The offer lists no attributes.</p>
            )}
            {record.state === 'offer-received' && (
              <div class="row">
                <Button
                  kind="primary"
                  busy={action.isBusy}
                  onClick={() =>
                    void action.run(async () => {
                      const formats =
                        preview.format === 'anoncreds'
                          ? { anoncreds: {} }
                          : { jsonld: preview.subjectId ? {} : { credentialSubjectId: await holderDid() } }
                      await call(() =>
                        api.POST('/v1/accept-offer', {
                          body: {
                            credentialRecordId: record.id,
                            autoAcceptCredential: 'always',
                            credentialFormats: formats as unknown as Record<string, never>,
                          },
                        }),
                      )
                      props.onChange()
                      return 'Offer accepted: the credential arrives in a moment.'
                    })
                  }
                >
                  Accept<span class="visually-hidden"> the offer of {title}</span>
                </Button>
              </div>
            )}
            <ActionResult action={action} />
          </>
        )}
      </Loaded>
      <p class="muted small">Received {formatTime(record.createdAt ?? null)}</p>
    </article>
  )
}
