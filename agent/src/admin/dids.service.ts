import {
  ClaimFormat,
  DidResolverService,
  findVerificationMethodByKeyType,
  W3cJsonLdCredentialService,
  DidDocumentBuilder,
  getEd25519VerificationKey2018,
  JsonTransformer,
  Kms,
  PeerDidNumAlgo,
  TypedArrayEncoder,
  W3cCredential,
  W3cJsonLdVerifiableCredential,
} from '@credo-ts/core'
import type {
  CreateDidRequest,
  CreatedDid,
  CredentialCheck,
  DidListEntry,
  SignCredentialRequest,
  VerifyCredentialRequest,
} from '@idplane/common/agent-contract/admin-api'
import { InvalidInputError, UpstreamError } from '@idplane/common'
import sodium from 'libsodium-wrappers'

import { sodiumReady } from '../adapters/kms/didcomm-v1-box'
import type { IndyLedgerDidCreateOptions } from '../ledger/indy-did-registrar'
import type { AgentRuntime } from './agent-runtime'
import type { AgentScope } from './agent-scope'
import { protocolStep } from './credo-errors'
import { indyDidFromVerkey } from '../ledger/indy-dids'
import { ledgerFailure } from './ledger-failures'

const ED25519 = { kty: 'OKP', crv: 'Ed25519' } as const

/** DIDs (did:key, did:peer, did:web, did:indy on the platform ledger) and W3C JSON-LD signing outside any exchange. */
export class DidsService {
  public constructor(private readonly runtime: AgentRuntime) {}

  /**
   * @throws {InvalidInputError} did:web without a domain, an endpoint that is no URL, a ledger refusal
   * @throws {ConflictError} when another tenant owns the key (the same seed)
   */
  public async create(scope: AgentScope, body: CreateDidRequest): Promise<CreatedDid> {
    const agent = scope.agent
    if (body.did !== undefined) body = await importRequest(body)
    if (body.method === 'web' && !body.domain)
      throw new InvalidInputError('domain is required for did:web', [{ field: 'domain', message: 'is required' }])
    if (body.method === 'indy' && body.endpoint !== undefined && !/^https?:\/\/\S+$/.test(body.endpoint))
      throw new InvalidInputError('endpoint must be an http(s) URL', [{ field: 'endpoint', message: 'is not a URL' }])
    const keyId = await this.keyFor(scope, body)
    return protocolStep('input', 'The DID cannot be created', async () => {
      if (body.method === 'key') {
        return assertFinished((await agent.dids.create({ method: 'key', options: { keyId } })).didState)
      }
      if (body.method === 'indy') {
        const result = await agent.dids.create<IndyLedgerDidCreateOptions>({
          method: 'indy',
          options: { keyId, endpoint: body.endpoint },
        })
        if (result.didState.state !== 'finished') throw ledgerFailure('DID', failureReason(result.didState))
        return assertFinished(result.didState)
      }
      if (body.method === 'peer') {
        const result = await agent.dids.create({
          method: 'peer',
          options: { numAlgo: PeerDidNumAlgo.InceptionKeyWithoutDoc, keyId },
        })
        return assertFinished(result.didState)
      }
      return this.importDidWeb(scope, `did:web:${body.domain}`, keyId)
    })
  }

  public async list(scope: AgentScope): Promise<DidListEntry[]> {
    const records = await scope.agent.dids.getCreatedDids()
    return records.map((record) => ({
      did: record.did,
      method: record.did.split(':')[1] ?? '',
      // The envelope's JSON writes the date as ISO text, as the contract types it.
      createdAt: record.createdAt.toISOString(),
    }))
  }

  /** @throws {InvalidInputError} for a credential or verification method that cannot be used (an unresolvable DID) */
  public sign(scope: AgentScope, body: SignCredentialRequest): Promise<Record<string, unknown>> {
    return protocolStep('input', 'The credential cannot be signed', async () => {
      const credential = JsonTransformer.fromJSON(body.credential, W3cCredential)
      const signed = await scope.agent.w3cCredentials.signCredential({
        format: ClaimFormat.LdpVc,
        credential,
        proofType: body.proofType,
        verificationMethod:
          body.verificationMethod ?? (await issuerVerificationMethod(scope, credential.issuerId, body.proofType)),
      })
      // The credential's JSON form (`@context`, flat subject claims), not the class instance's own fields.
      return JsonTransformer.toJSON(signed) as Record<string, unknown>
    })
  }

  public verify(scope: AgentScope, body: VerifyCredentialRequest): Promise<CredentialCheck> {
    return protocolStep('input', 'The credential cannot be checked', async () => {
      const credential = JsonTransformer.fromJSON(body.credential, W3cJsonLdVerifiableCredential)
      const result = await scope.agent.w3cCredentials.verifyCredential({ credential })
      return { isValid: result.isValid, error: result.error?.message }
    })
  }

  private async importDidWeb(scope: AgentScope, did: string, keyId: string): Promise<CreatedDid> {
    const agent = scope.agent
    const publicJwk = Kms.PublicJwk.fromPublicJwk((await agent.kms.getPublicKey({ keyId })) as Kms.KmsJwkPublicOkp)
    const verificationMethod = getEd25519VerificationKey2018({
      id: `${did}#key-1`,
      controller: did,
      publicJwk: publicJwk as Kms.PublicJwk<Kms.Ed25519PublicJwk>,
    })
    const didDocument = new DidDocumentBuilder(did)
      .addContext('https://w3id.org/security/suites/ed25519-2018/v1')
      .addVerificationMethod(verificationMethod)
      .addAuthentication(verificationMethod.id)
      .addAssertionMethod(verificationMethod.id)
      .build()
    await agent.dids.import({ did, didDocument, keys: [{ kmsKeyId: keyId, didDocumentRelativeKeyId: '#key-1' }] })
    return { did, didDocument: didDocument.toJSON() }
  }

  /**
   * A new Ed25519 key, or the one given as a 32-character seed or a 64-hex-digit private key. A tenant's key is
   * claimed for its routing, so messages to the DID reach the tenant.
   * @throws {ConflictError} when another tenant owns the key (the same seed)
   */
  private async keyFor(scope: AgentScope, body: CreateDidRequest): Promise<string> {
    const keyId = await createKey(scope, body)
    if (scope.tenantId === undefined) return keyId
    const publicJwk = await scope.agent.kms.getPublicKey({ keyId })
    if (!publicJwk) throw new Error('The key just created is missing')
    // DIDComm v1 envelopes name Ed25519 keys only; nothing else can route a message.
    if (publicJwk.kty !== 'OKP') return keyId
    try {
      await this.runtime.tenants.claimRecipientKey(scope.tenantId, Kms.PublicJwk.fromPublicJwk(publicJwk).fingerprint)
    } catch (error) {
      await scope.agent.kms.deleteKey({ keyId }).catch(() => undefined)
      throw error
    }
    return keyId
  }
}

/**
 * A request to import `did` checked against its key, before anything is stored: did:key and did:peer:0 must be the
 * key's own, did:indy's identifier the one the key gives (its first 16 bytes, base58), and a did:web is served with
 * the key under its domain. Importing is creating from the given key, so the key is stored like every other.
 * @throws {InvalidInputError} naming `did`, `seed`/`privatekey` or `domain`
 */
async function importRequest(body: CreateDidRequest): Promise<CreateDidRequest> {
  const did = body.did ?? ''
  const secret = secretOf(body)
  if (!secret) {
    throw new InvalidInputError('Importing a DID needs its key: give seed or privatekey', [
      { field: 'privatekey', message: 'seed or privatekey is required with did' },
    ])
  }
  const method = did.split(':')[1]
  const mismatch = (message: string) => new InvalidInputError(message, [{ field: 'did', message }])
  if (method !== body.method) throw mismatch(`did is a did:${method ?? ''}, not a did:${body.method}`)
  if (method === 'web') {
    const domain = did.slice('did:web:'.length)
    if (body.domain !== undefined && body.domain !== domain) throw mismatch('did and domain name different domains')
    return { ...body, domain }
  }
  await sodiumReady()
  const { publicKey } = sodium.crypto_sign_seed_keypair(secret)
  const fingerprint = Kms.PublicJwk.fromPublicJwk({
    ...ED25519,
    x: TypedArrayEncoder.toBase64URL(publicKey),
  }).fingerprint
  const expected =
    method === 'key'
      ? `did:key:${fingerprint}`
      : method === 'peer'
        ? `did:peer:0${fingerprint}`
        : // did:indy:<namespace>:<id>: the namespace is the ledger's, checked when the DID is written.
          indyDidFromVerkey(publicKey)
  const given = method === 'indy' ? did.split(':').at(-1) : did
  if (given !== expected) throw mismatch(`did is not the DID of the given key (that is ${expected})`)
  return body
}

function secretOf(body: CreateDidRequest): Buffer | undefined {
  if (body.seed) return Buffer.from(body.seed, 'utf8')
  if (body.privatekey) return Buffer.from(body.privatekey, 'hex')
  return undefined
}

async function createKey(scope: AgentScope, body: CreateDidRequest): Promise<string> {
  const kms = scope.agent.kms
  const secret = secretOf(body)
  if (!secret) return (await kms.createKey({ type: ED25519 })).keyId
  await sodiumReady()
  const { publicKey } = sodium.crypto_sign_seed_keypair(secret)
  const imported = await kms.importKey({
    privateJwk: {
      ...ED25519,
      d: TypedArrayEncoder.toBase64URL(secret),
      x: TypedArrayEncoder.toBase64URL(publicKey),
    },
  })
  return imported.keyId
}

function assertFinished(state: {
  state: string
  did?: string
  didDocument?: { toJSON(): unknown }
  reason?: string
}): CreatedDid {
  if (state.state !== 'finished' || !state.did)
    throw new UpstreamError(`DID creation failed: ${state.reason ?? state.state}`)
  return { did: state.did, didDocument: state.didDocument?.toJSON() as Record<string, unknown> | undefined }
}

function failureReason(state: { state: string; reason?: string }): string {
  return state.reason ?? state.state
}

/** The issuer DID's verification method for the proof type, chosen as Credo's JSON-LD issuance chooses it. */
async function issuerVerificationMethod(scope: AgentScope, issuer: string, proofType: string): Promise<string> {
  const context = scope.agent.context
  const didDocument = await context.dependencyManager.resolve(DidResolverService).resolveDidDocument(context, issuer)
  const [keyType] = context.dependencyManager
    .resolve(W3cJsonLdCredentialService)
    .getVerificationMethodTypesByProofType(proofType)
  const method = keyType ? await findVerificationMethodByKeyType(keyType, didDocument) : null
  if (!method) throw new InvalidInputError(`${issuer} has no verification method for ${proofType}`)
  return method.id
}
