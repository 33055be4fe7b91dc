import {
  createPeerDidDocumentFromServices,
  DidDocumentRole,
  didDocumentToNumAlgo2Did,
  DidKey,
  type DidRecord,
  DidRepository,
  Kms,
  PeerDidNumAlgo,
  type PeerDidNumAlgo2CreateOptions,
  RecordNotFoundError,
  type ResolvedDidCommService,
} from '@credo-ts/core'
import {
  DidCommModuleConfig,
  type DidCommOutOfBandRecord,
  DidCommOutOfBandRole,
  DidCommRoutingService,
} from '@credo-ts/didcomm'
import { ConflictError, InvalidInputError, NotFoundError } from '@idplane/common'

import { KeyedQueue } from '../adapters/storage/keyed-queue'
import type { ScopedAgent } from '../credo/build-agent'
import type { Ed25519PublicKey, InvitationService } from './oob-invitation-options'

/** Custom tag of the wallet's standing invitation DID (`IsReuseConnection`). */
const REUSABLE_INVITATION_TAG = 'reusableInvitation'

/**
 * The DID an invitation names as its service when the caller chose the key (`recipientKey`, `routing`) or asked for
 * invitations that share one DID (`IsReuseConnection`). Decision (docs/decisions.md): such a service is published
 * as a did:peer:2 of this wallet, one DID per key, never inline. Credo 0.6 finds the wallet key of an inbound DIDComm
 * v1 message by its recipient key and allows one DID per key (`assertNoCreatedDidExistsForKeys`), while the inviter of
 * an inline, single-use invitation answers with a connection DID holding the invitation key: an inline key could
 * serve one connection only. Behind a DID the inviter rotates to fresh keys, the key serves any number of
 * invitations, and a receiver can reuse its connection (RFC 0434 asks for a resolvable DID for that).
 */
export class InvitationDids {
  /** Publishing looks, then creates: serialized per wallet so that two requests never create one DID twice. */
  private readonly queue = new KeyedQueue()

  /**
   * @returns the DID for Credo's `invitationDid`, or undefined for Credo's default (a fresh inline key)
   * @throws {NotFoundError} when the key or the DID is not this wallet's
   * @throws {ConflictError} when the key already serves another DID or an inline invitation of this wallet
   * @throws {InvalidInputError} when the named DID has no DIDComm service
   */
  public async forInvitation(agent: ScopedAgent, service: InvitationService): Promise<string | undefined> {
    if (service.kind === 'fresh') return undefined
    if (service.kind === 'did') {
      await assertDidCommDidOfWallet(agent, service.did)
      return service.did
    }
    const wallet = agent.context.contextCorrelationId
    if (service.kind === 'reusable') return this.queue.run(wallet, () => standingDid(agent))
    const recipientKey = await withWalletKeyId(agent, service.recipientKey)
    const endpoints = service.endpoints ?? agent.dependencyManager.resolve(DidCommModuleConfig).endpoints
    return this.queue.run(wallet, () => publish(agent, recipientKey, endpoints, service.routingKeys))
  }
}

/** The did:peer:2 naming one DIDComm service per endpoint; the same inputs always give the same DID. */
async function publish(
  agent: ScopedAgent,
  recipientKey: Ed25519PublicKey,
  endpoints: string[],
  routingKeys: Ed25519PublicKey[],
): Promise<string> {
  const services: ResolvedDidCommService[] = endpoints.map((serviceEndpoint, index) => ({
    id: `#didcomm-${index}`,
    serviceEndpoint,
    recipientKeys: [recipientKey],
    routingKeys,
  }))
  const { didDocument, keys } = createPeerDidDocumentFromServices(services, true)
  const did = didDocumentToNumAlgo2Did(didDocument)
  if ((await agent.dids.getCreatedDids({ method: 'peer', did })).length > 0) return did
  await assertKeyUnpublished(agent, recipientKey)
  const result = await agent.dids.create<PeerDidNumAlgo2CreateOptions>({
    method: 'peer',
    didDocument,
    options: { numAlgo: PeerDidNumAlgo.MultipleInceptionKeyWithoutDoc, keys },
  })
  if (result.didState.state !== 'finished') {
    throw new Error(`Could not create the invitation DID: ${JSON.stringify(result.didState)}`)
  }
  return did
}

/**
 * The standing DID on the agent's current endpoints, made on first use with a key of its own. When the endpoints
 * changed, a new one with a new key takes over (a key serves one DID); the old one keeps serving its invitations.
 */
async function standingDid(agent: ScopedAgent): Promise<string> {
  const repository = agent.dependencyManager.resolve(DidRepository)
  const endpoints = agent.dependencyManager.resolve(DidCommModuleConfig).endpoints
  const standing = await repository.findByQuery(agent.context, {
    role: DidDocumentRole.Created,
    [REUSABLE_INVITATION_TAG]: true,
  })
  for (const record of standing) {
    if (await servesEndpoints(agent, record.did, endpoints)) return record.did
  }
  // Credo's own way to a new invitation key: the routing event lets tenancy route messages for it to this tenant.
  const routing = await agent.dependencyManager.resolve(DidCommRoutingService).getRouting(agent.context, {})
  const did = await publish(agent, routing.recipientKey, routing.endpoints, routing.routingKeys)
  for (const record of await agent.dids.getCreatedDids({ method: 'peer', did })) {
    await setStanding(agent, record, true)
  }
  for (const record of standing) await setStanding(agent, record, undefined)
  return did
}

async function setStanding(agent: ScopedAgent, record: DidRecord, value: true | undefined): Promise<void> {
  record.setTag(REUSABLE_INVITATION_TAG, value)
  await agent.dependencyManager.resolve(DidRepository).update(agent.context, record)
}

async function servesEndpoints(agent: ScopedAgent, did: string, endpoints: string[]): Promise<boolean> {
  const { didDocument } = await agent.dids.resolveCreatedDidDocumentWithKeys(did)
  const served = didDocument.didCommServices.map((service) => service.serviceEndpoint)
  return served.length === endpoints.length && served.every((endpoint, index) => endpoint === endpoints[index])
}

/**
 * The key with the id this wallet's KMS holds it under. Credo keeps no index from public key to key id: the id is in
 * the record that uses the key (a did:key, did:peer:0 or did:web made with POST /dids, a DIDComm DID, an invitation),
 * or the key is stored under its base58 form (Askar's legacy id). Sets the found id as the key's `keyId`.
 * @throws {NotFoundError} when this wallet does not hold the private key
 */
async function withWalletKeyId(agent: ScopedAgent, key: Ed25519PublicKey): Promise<Ed25519PublicKey> {
  const records = [
    ...(await agent.dids.getCreatedDids({ method: 'key', did: new DidKey(key).did })),
    ...(await agent.dids.getCreatedDids({ method: 'peer', did: `did:peer:0${key.fingerprint}` })),
    ...(await agent.dids.getCreatedDids({ method: 'web' })),
    ...(await createdDidsWithRecipientKey(agent, key)),
  ]
  const invitationKeys = (await invitationsWithRecipientKey(agent, key)).flatMap(
    (record) => record.invitationInlineServiceKeys ?? [],
  )
  const candidates = new Set([
    ...records.flatMap((record) => record.keys?.map((k) => k.kmsKeyId) ?? []),
    ...invitationKeys.filter((k) => k.recipientKeyFingerprint === key.fingerprint).map((k) => k.kmsKeyId),
    key.legacyKeyId,
  ])
  for (const keyId of candidates) {
    if ((await publicKeyOf(agent, keyId))?.equals(key)) {
      key.keyId = keyId
      return key
    }
  }
  throw new NotFoundError('The recipient key is not a key of this wallet')
}

async function publicKeyOf(agent: ScopedAgent, keyId: string): Promise<Kms.PublicJwk | undefined> {
  try {
    const jwk = await agent.kms.getPublicKey({ keyId })
    return jwk.kty === 'oct' ? undefined : Kms.PublicJwk.fromPublicJwk(jwk)
  } catch (error) {
    if (error instanceof Kms.KeyManagementKeyNotFoundError) return undefined
    throw error
  }
}

/**
 * @throws {ConflictError} when a DIDComm DID of this wallet (a connection's, or an invitation DID with other
 * endpoints or routing keys) or an inline invitation already names the key: Credo would then find two DIDs for it
 */
async function assertKeyUnpublished(agent: ScopedAgent, key: Ed25519PublicKey): Promise<void> {
  if ((await createdDidsWithRecipientKey(agent, key)).length > 0) {
    throw new ConflictError(
      'The recipient key already serves another DIDComm DID of this wallet (a connection, or invitations with other ' +
        'endpoints or routing keys); DIDComm v1 routes by key, so one key serves one DID',
    )
  }
  const didKey = new DidKey(key).did
  const invitations = await invitationsWithRecipientKey(agent, key)
  const inline = invitations.some((record) =>
    record.outOfBandInvitation.getInlineServices().some((service) => service.recipientKeys.includes(didKey)),
  )
  if (inline) {
    throw new ConflictError(
      'The recipient key is the inline key of an earlier invitation of this wallet; it cannot serve a DID as well',
    )
  }
}

function invitationsWithRecipientKey(agent: ScopedAgent, key: Ed25519PublicKey): Promise<DidCommOutOfBandRecord[]> {
  return agent.didcomm.oob.findAllByQuery({
    role: DidCommOutOfBandRole.Sender,
    recipientKeyFingerprints: [key.fingerprint],
  })
}

function createdDidsWithRecipientKey(agent: ScopedAgent, key: Ed25519PublicKey): Promise<DidRecord[]> {
  return agent.dependencyManager.resolve(DidRepository).findByQuery(agent.context, {
    role: DidDocumentRole.Created,
    recipientKeyFingerprints: [key.fingerprint],
  })
}

/**
 * @throws {NotFoundError} when the DID is not one this wallet created (only such a DID can answer the invitation)
 * @throws {InvalidInputError} when its document has no DIDComm service
 */
async function assertDidCommDidOfWallet(agent: ScopedAgent, did: string): Promise<void> {
  const { didDocument } = await agent.dids.resolveCreatedDidDocumentWithKeys(did).catch((error: unknown) => {
    if (error instanceof RecordNotFoundError) throw new NotFoundError('invitationDid is not a DID of this wallet')
    throw error
  })
  if (didDocument.didCommServices.length === 0) {
    throw new InvalidInputError('invitationDid has no DIDComm service', [
      { field: 'invitationDid', message: 'must name a DID whose document has a DIDComm service' },
    ])
  }
}
