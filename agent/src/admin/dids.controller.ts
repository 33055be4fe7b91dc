import {
  DidDocumentBuilder,
  getEd25519VerificationKey2018,
  Kms,
  TypedArrayEncoder,
  W3cCredential,
  W3cJsonLdVerifiableCredential,
  JsonTransformer,
  ClaimFormat,
} from '@credo-ts/core'
import { PeerDidNumAlgo } from '@credo-ts/core'
import { InvalidInputError, UpstreamError } from '@idplane/common'
import sodium from 'libsodium-wrappers'
import { Authorized, Body, Get, HttpCode, JsonController, Post } from 'routing-controllers'

import { sodiumReady } from '../adapters/kms/didcomm-v1-box'
import type { AgentRuntime } from './agent-runtime'
import type { IndyLedgerDidCreateOptions } from '../ledger/indy-did-registrar'
import { type AgentScope, CurrentScope } from './agent-scope'
import { CreateDidDto, SignCredentialDto, VerifyCredentialDto } from './dto/dids.dto'
import { created, ok, toJson } from './envelope'
import { ledgerFailure } from './ledger-failures'

const ED25519 = { kty: 'OKP', crv: 'Ed25519' } as const

/** DIDs (did:key, did:peer, did:web, did:indy on the platform ledger) and W3C JSON-LD signing and verification outside any exchange. */
@Authorized()
@JsonController()
export class DidsController {
  public constructor(private readonly runtime: AgentRuntime) {}

  @Post('/dids')
  @HttpCode(201)
  public async create(@CurrentScope() scope: AgentScope, @Body() body: CreateDidDto) {
    const agent = scope.agent
    const keyId = await this.keyFor(scope, body)
    if (body.method === 'key') {
      const result = await agent.dids.create({ method: 'key', options: { keyId } })
      return created(this.assertFinished(result.didState), 'DID created')
    }
    if (body.method === 'indy') {
      if (body.endpoint !== undefined && !/^https?:\/\/\S+$/.test(body.endpoint))
        throw new InvalidInputError('endpoint must be an http(s) URL', [{ field: 'endpoint', message: 'is not a URL' }])
      const result = await agent.dids.create<IndyLedgerDidCreateOptions>({
        method: 'indy',
        options: { keyId, endpoint: body.endpoint },
      })
      if (result.didState.state !== 'finished') throw ledgerFailure('DID', failureReason(result.didState))
      return created(this.assertFinished(result.didState), 'DID created')
    }
    if (body.method === 'peer') {
      const result = await agent.dids.create({
        method: 'peer',
        options: { numAlgo: PeerDidNumAlgo.InceptionKeyWithoutDoc, keyId },
      })
      return created(this.assertFinished(result.didState), 'DID created')
    }
    if (!body.domain)
      throw new InvalidInputError('domain is required for did:web', [{ field: 'domain', message: 'is required' }])
    const did = `did:web:${body.domain}`
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
    return created({ did, didDocument: didDocument.toJSON() }, 'DID created')
  }

  @Get('/dids')
  public async list(@CurrentScope() scope: AgentScope) {
    const records = await scope.agent.dids.getCreatedDids()
    return ok(
      records.map((record) => ({ did: record.did, method: record.did.split(':')[1], createdAt: record.createdAt })),
    )
  }

  @Post('/w3c/sign')
  @HttpCode(201)
  public async sign(@CurrentScope() scope: AgentScope, @Body() body: SignCredentialDto) {
    const credential = JsonTransformer.fromJSON(body.credential, W3cCredential)
    const signed = await scope.agent.w3cCredentials.signCredential({
      format: ClaimFormat.LdpVc,
      credential,
      proofType: body.proofType,
      verificationMethod: body.verificationMethod,
    })
    return created(toJson(signed), 'Credential signed')
  }

  @Post('/w3c/verify')
  @HttpCode(201)
  public async verify(@CurrentScope() scope: AgentScope, @Body() body: VerifyCredentialDto) {
    const credential = JsonTransformer.fromJSON(body.credential, W3cJsonLdVerifiableCredential)
    const result = await scope.agent.w3cCredentials.verifyCredential({ credential })
    return created({ isValid: result.isValid, error: result.error?.message }, 'Credential checked')
  }

  /**
   * A new Ed25519 key, or the one given as a 32-character seed or a 64-hex-digit private key. A tenant's key is
   * claimed for its routing, so messages to the DID reach the tenant.
   * @throws {ConflictError} when another tenant owns the key (the same seed)
   */
  private async keyFor(scope: AgentScope, body: CreateDidDto): Promise<string> {
    const keyId = await this.createKey(scope, body)
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

  private async createKey(scope: AgentScope, body: CreateDidDto): Promise<string> {
    const kms = scope.agent.kms
    const secret = body.seed
      ? Buffer.from(body.seed, 'utf8')
      : body.privatekey
        ? Buffer.from(body.privatekey, 'hex')
        : undefined
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

  private assertFinished(state: { state: string; did?: string; didDocument?: { toJSON(): unknown }; reason?: string }) {
    if (state.state !== 'finished' || !state.did)
      throw new UpstreamError(`DID creation failed: ${state.reason ?? state.state}`)
    return { did: state.did, didDocument: state.didDocument?.toJSON() }
  }
}

function failureReason(state: { state: string; reason?: string }): string {
  return state.reason ?? state.state
}
