import { type AgentContext, DidRegistrarService, DidRepository, type KeyDidCreateOptions } from '@credo-ts/core'

/** did:key of an Ed25519 key (multicodec 0xed01, base58btc `z6Mk`): what Ed25519 JSON-LD suites sign with. */
const ED25519_DID_KEY = /^did:key:z6Mk/

/**
 * The DID this wallet binds a JSON-LD credential to when the offer names no subject and the holder named none
 * (issue 22 item 10): a holder answering a presentation request signs as the credential's subject, so a credential
 * without one can never be presented. The wallet's oldest Ed25519 did:key, or a new one when it has none, so a
 * wallet (a cloud-wallet tenant or an organization) works without a separate DID call and keeps one holder DID.
 * @throws Error when the DID cannot be created (the accept fails with the reason)
 */
export async function holderDidFor(agentContext: AgentContext): Promise<string> {
  const created = await agentContext.dependencyManager
    .resolve(DidRepository)
    .getCreatedDids(agentContext, { method: 'key' })
  const existing = created
    .filter((record) => ED25519_DID_KEY.test(record.did))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0]
  if (existing) return existing.did
  const result = await agentContext.dependencyManager
    .resolve(DidRegistrarService)
    .create<KeyDidCreateOptions>(agentContext, {
      method: 'key',
      options: { createKey: { type: { kty: 'OKP', crv: 'Ed25519' } } },
    })
  const did = result.didState.state === 'finished' ? result.didState.did : undefined
  if (!did) throw new Error(`No holder DID could be created: ${JSON.stringify(result.didState)}`)
  return did
}
