import {
  type AgentContext,
  DidCommV1Service,
  type DidDocument,
  DidDocumentBuilder,
  DidRepository,
  Kms,
  TypedArrayEncoder,
} from '@credo-ts/core'
import { INDY_DID_PATTERN } from '@idplane/common/agent-contract/ledger'
import sodium from 'libsodium-wrappers'

import { sodiumReady } from '../adapters/kms/didcomm-v1-box'

/** `did:indy:<namespace>:<id>`; the namespace as Credo's did:indy parsing accepts it. */
export const DID_INDY_PATTERN =
  /^did:indy:([a-z0-9][_a-z0-9-]*(?::[a-z0-9][_a-z0-9-]*)?):([1-9A-HJ-NP-Za-km-z]{21,22})$/
export const DID_SOV_PATTERN = /^did:sov:([1-9A-HJ-NP-Za-km-z]{21,22})$/

/** The key of a did:indy DID document that its NYM's verkey is (Indy's base DID document template). */
export const VERKEY_FRAGMENT = '#verkey'
export const KEY_AGREEMENT_FRAGMENT = '#key-agreement-1'

/** An Indy DID: base58 of the first 16 bytes of the Ed25519 verkey. */
export function indyDidFromVerkey(verkey: Uint8Array): string {
  return TypedArrayEncoder.toBase58(verkey.subarray(0, 16))
}

/** The unqualified Indy DID of `did:indy:<ns>:<id>`, `did:sov:<id>` or `<id>`; undefined for anything else. */
export function unqualifiedIndyDid(did: string): string | undefined {
  if (INDY_DID_PATTERN.test(did)) return did
  return DID_INDY_PATTERN.exec(did)?.[2] ?? DID_SOV_PATTERN.exec(did)?.[1]
}

/**
 * The document of a did:indy DID as the ledger serves it for a NYM and an endpoint ATTRIB: the verkey
 * (Ed25519VerificationKey2018 `#verkey`, authentication), its X25519 form for key agreement and a DIDComm v1 service
 * addressed to that. Kept in the DidRecord this agent stores for a DID it created.
 */
export async function indyDidDocument(did: string, verkey: Uint8Array, endpoint?: string): Promise<DidDocument> {
  const verificationMethodId = `${did}${VERKEY_FRAGMENT}`
  const builder = new DidDocumentBuilder(did)
    .addContext('https://w3id.org/security/suites/ed25519-2018/v1')
    .addVerificationMethod({
      id: verificationMethodId,
      type: 'Ed25519VerificationKey2018',
      controller: did,
      publicKeyBase58: TypedArrayEncoder.toBase58(verkey),
    })
    .addAuthentication(verificationMethodId)
    .addAssertionMethod(verificationMethodId)
  if (endpoint) {
    await sodiumReady()
    const keyAgreementId = `${did}${KEY_AGREEMENT_FRAGMENT}`
    builder
      .addContext('https://w3id.org/security/suites/x25519-2019/v1')
      .addKeyAgreement({
        id: keyAgreementId,
        type: 'X25519KeyAgreementKey2019',
        controller: did,
        publicKeyBase58: TypedArrayEncoder.toBase58(sodium.crypto_sign_ed25519_pk_to_curve25519(verkey)),
      })
      .addService(
        new DidCommV1Service({
          id: `${did}#did-communication`,
          serviceEndpoint: endpoint,
          recipientKeys: [keyAgreementId],
          routingKeys: [],
          accept: ['didcomm/aip2;env=rfc19'],
          priority: 0,
        }),
      )
  }
  return builder.build()
}

/** Why a DID's key could not be found or used for a ledger write. */
export class LedgerSigningError extends Error {
  public constructor(message: string) {
    super(message)
    this.name = 'LedgerSigningError'
  }
}

/** Signs what an author writes to the ledger; the KMS signer is the real one, tests may pass their own. */
export interface LedgerSigner {
  /** The base58 Ed25519 signature of `data` by the key of `did:indy:<namespace>:<authorDid>`. */
  sign(agentContext: AgentContext, input: { namespace: string; authorDid: string; data: Uint8Array }): Promise<string>
}

/**
 * Signs with the key of a did:indy DID this agent (or tenant) created: its DidRecord names the KMS key of `#verkey`
 * (written by IndyLedgerDidRegistrar). A DID without such a record is refused: the ledger would refuse it anyway.
 */
export class KmsLedgerSigner implements LedgerSigner {
  public async sign(
    agentContext: AgentContext,
    input: { namespace: string; authorDid: string; data: Uint8Array },
  ): Promise<string> {
    const did = `did:indy:${input.namespace}:${input.authorDid}`
    const record = await agentContext.dependencyManager.resolve(DidRepository).findCreatedDid(agentContext, did)
    const keyId = record?.keys?.find((key) => key.didDocumentRelativeKeyId === VERKEY_FRAGMENT)?.kmsKeyId
    if (!keyId)
      throw new LedgerSigningError(
        `${input.authorDid} is not a did:indy DID this agent created (create one with POST /dids, method indy)`,
      )
    const { signature } = await agentContext.dependencyManager
      .resolve(Kms.KeyManagementApi)
      .sign({ keyId, algorithm: 'EdDSA', data: input.data })
    return TypedArrayEncoder.toBase58(signature)
  }
}
