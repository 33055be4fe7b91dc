import {
  type AgentContext,
  type DidCreateOptions,
  type DidCreateResult,
  DidDocumentRole,
  type DidDeactivateResult,
  DidRecord,
  type DidRegistrar,
  DidRepository,
  type DidUpdateResult,
  Kms,
  TypedArrayEncoder,
} from '@credo-ts/core'
import { DidCommModuleConfig } from '@credo-ts/didcomm'

import { indyDidDocument, indyDidFromVerkey, KmsLedgerSigner, type LedgerSigner, VERKEY_FRAGMENT } from './indy-dids'
import type { LedgerClient } from './ledger-client'

/** `agent.dids.create({ method: 'indy', options })`. */
export interface IndyLedgerDidCreateOptions extends DidCreateOptions {
  method: 'indy'
  options?: {
    /** An Ed25519 key already in the KMS (e.g. imported from a seed); a new one otherwise. */
    keyId?: string
    /** The DIDComm endpoint written as the DID's ATTRIB; default: the agent's first DIDComm endpoint. */
    endpoint?: string
  }
}

/**
 * Creates `did:indy:<namespace>:<id>` DIDs on the platform ledger: an Ed25519 key in the KMS, the DID derived from it
 * (base58 of the verkey's first 16 bytes), the NYM written by the platform's trustee on the proof that this agent
 * holds the key (`POST /v1/ledger/nyms`, authenticated with the agent's event token; the proof is bound to the DID's
 * state, so it is good once), then an ATTRIB with the
 * DIDComm endpoint signed by the new key, and a DidRecord (role created) naming the key as `#verkey`, so the DID
 * signs ledger writes (AnonCreds) and serves DIDComm. Creating again with the same key is idempotent (the NYM
 * answers 200), which is how a creation interrupted after the NYM is finished.
 */
export class IndyLedgerDidRegistrar implements DidRegistrar {
  public readonly supportedMethods = ['indy']

  public constructor(
    private readonly ledger: LedgerClient,
    private readonly signer: LedgerSigner = new KmsLedgerSigner(),
  ) {}

  public async create(agentContext: AgentContext, options: IndyLedgerDidCreateOptions): Promise<DidCreateResult> {
    const kms = agentContext.dependencyManager.resolve(Kms.KeyManagementApi)
    let stage = 'read the ledger namespace'
    try {
      const namespace = await this.ledger.getNamespace()
      stage = 'create the key'
      const { keyId, verkey } = await this.keyOf(kms, options.options?.keyId)
      const id = indyDidFromVerkey(verkey)
      const did = `did:indy:${namespace}:${id}`
      const verkeyBase58 = TypedArrayEncoder.toBase58(verkey)

      stage = 'write the NYM'
      // The client binds the proof of possession to the DID's state on the ledger (0 before its NYM).
      const nym = await this.ledger.writeNym({ did: id, verkey: verkeyBase58 }, async (data) =>
        TypedArrayEncoder.toBase58((await kms.sign({ keyId, algorithm: 'EdDSA', data })).signature),
      )

      const repository = agentContext.dependencyManager.resolve(DidRepository)
      const endpoint =
        options.options?.endpoint ?? agentContext.dependencyManager.resolve(DidCommModuleConfig).endpoints[0]
      const didDocument = await indyDidDocument(did, verkey, endpoint)
      // Stored before the ATTRIB: the signer finds the DID's key through this record.
      let record = await repository.findCreatedDid(agentContext, did)
      if (!record) {
        record = new DidRecord({
          did,
          role: DidDocumentRole.Created,
          didDocument,
          keys: [{ didDocumentRelativeKeyId: VERKEY_FRAGMENT, kmsKeyId: keyId }],
        })
        await repository.save(agentContext, record)
      }

      let attribSeqNo: number | undefined
      if (endpoint) {
        stage = 'write the endpoint ATTRIB'
        const payload = { dest: id, raw: { endpoint: { endpoint, routingKeys: [] } } }
        const sign = (data: Uint8Array) => this.signer.sign(agentContext, { namespace, authorDid: id, data })
        attribSeqNo = (await this.ledger.writeTransaction({ type: 'ATTRIB', authorDid: id, payload }, sign)).seqNo
      }
      return {
        didDocumentMetadata: {},
        didRegistrationMetadata: { didIndyNamespace: namespace, nymSeqNo: nym.seqNo, attribSeqNo },
        didState: { state: 'finished', did, didDocument, secret: {} },
      }
    } catch (error) {
      return {
        didDocumentMetadata: {},
        didRegistrationMetadata: {},
        didState: {
          state: 'failed',
          reason: `Could not ${stage}: ${error instanceof Error ? error.message : String(error)}`,
        },
      }
    }
  }

  public async update(): Promise<DidUpdateResult> {
    return notSupported('update')
  }

  public async deactivate(): Promise<DidDeactivateResult> {
    return notSupported('deactivate')
  }

  private async keyOf(kms: Kms.KeyManagementApi, keyId: string | undefined) {
    if (!keyId) {
      const created = await kms.createKey({ type: { kty: 'OKP', crv: 'Ed25519' } })
      return { keyId: created.keyId, verkey: ed25519Bytes(created.publicJwk) }
    }
    const publicJwk = await kms.getPublicKey({ keyId })
    if (!publicJwk) throw new Error(`no key ${keyId} in the KMS`)
    return { keyId, verkey: ed25519Bytes(publicJwk) }
  }
}

function ed25519Bytes(jwk: Kms.KmsJwkPublic): Uint8Array {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') throw new Error('an Indy DID needs an Ed25519 key')
  return new Uint8Array(Buffer.from(jwk.x, 'base64url'))
}

function notSupported(operation: string) {
  return {
    didDocumentMetadata: {},
    didRegistrationMetadata: {},
    didState: {
      state: 'failed' as const,
      reason: `notSupported: the platform ledger cannot ${operation} a did:indy DID (no NYM rotation)`,
    },
  }
}
