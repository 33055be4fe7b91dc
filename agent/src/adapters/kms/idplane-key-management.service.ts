import { type AgentContext, Kms, TypedArrayEncoder } from '@credo-ts/core'
import { NodeKeyManagementService } from '@credo-ts/node'
import { BoundedMap } from '@idplane/common'

import {
  BOX_NONCE_BYTES,
  openAnonymous,
  openAuthenticated,
  randomNonce,
  sealAnonymous,
  sealAuthenticated,
  sodiumReady,
  x25519FromEd25519Seed,
  x25519FromPrivateScalar,
  type X25519KeyPair,
} from './didcomm-v1-box'
import type { EncryptedKeyStorage } from './encrypted-key-storage'

export const IDPLANE_KMS_BACKEND = 'idplane'

/** Bound of the derived X25519 key pairs kept in memory (DIDComm keys in use; the opened keys are kept too). */
const MAX_DERIVED_KEY_PAIRS = 1000

/**
 * Our key-management backend. Node's KMS does the standard operations (Ed25519 and P-256 signatures,
 * X25519 ECDH-ES, AES and ChaCha20 content encryption) over our encrypted key store; this class adds what
 * Askar would otherwise provide for DIDComm v1: XSALSA20-POLY1305 with ECDH-HSALSA20 key agreement.
 */
export class IdplaneKeyManagementService implements Kms.KeyManagementService {
  public readonly backend = IDPLANE_KMS_BACKEND
  private readonly node: NodeKeyManagementService
  /**
   * X25519 key pairs derived from an Ed25519 private key (a scalar multiplication per message otherwise), keyed by
   * that private key. Consulted only after the key store returned the key, so a deleted key is never used.
   */
  private readonly derivedX25519 = new BoundedMap<string, X25519KeyPair>(MAX_DERIVED_KEY_PAIRS)

  public constructor(private readonly keys: EncryptedKeyStorage) {
    this.node = new NodeKeyManagementService(keys)
  }

  public isOperationSupported(agentContext: AgentContext, operation: Kms.KmsOperation): boolean {
    if (isDidcommV1Box(operation)) return true
    return this.node.isOperationSupported(agentContext, operation)
  }

  public getPublicKey(agentContext: AgentContext, keyId: string): Promise<Kms.KmsJwkPublic | null> {
    return this.node.getPublicKey(agentContext, keyId)
  }

  public createKey<Type extends Kms.KmsCreateKeyType>(
    agentContext: AgentContext,
    options: Kms.KmsCreateKeyOptions<Type>,
  ): Promise<Kms.KmsCreateKeyReturn<Type>> {
    return this.node.createKey(agentContext, options)
  }

  public importKey<Jwk extends Kms.KmsJwkPrivate>(
    agentContext: AgentContext,
    options: Kms.KmsImportKeyOptions<Jwk>,
  ): Promise<Kms.KmsImportKeyReturn<Jwk>> {
    return this.node.importKey(agentContext, options)
  }

  public deleteKey(agentContext: AgentContext, options: Kms.KmsDeleteKeyOptions): Promise<boolean> {
    return this.node.deleteKey(agentContext, options)
  }

  public sign(agentContext: AgentContext, options: Kms.KmsSignOptions): Promise<Kms.KmsSignReturn> {
    return this.node.sign(agentContext, options)
  }

  public verify(agentContext: AgentContext, options: Kms.KmsVerifyOptions): Promise<Kms.KmsVerifyReturn> {
    return this.node.verify(agentContext, options)
  }

  /**
   * A plain Uint8Array, as WebCrypto's `getRandomValues` (which Credo answers from here) gives, not Node's Buffer:
   * @peculiar/x509 strips a random certificate serial's leading zero bytes with `slice()`, which on a Buffer is a view
   * whose `.buffer` still holds them, so about one serial in 512 was a non-minimal DER integer that OpenSSL refuses
   * (Node's `X509Certificate`, and wallets built on it, could not read the certificate).
   */
  public randomBytes(agentContext: AgentContext, options: Kms.KmsRandomBytesOptions): Kms.KmsRandomBytesReturn {
    return Uint8Array.from(this.node.randomBytes(agentContext, options))
  }

  public async encrypt(agentContext: AgentContext, options: Kms.KmsEncryptOptions): Promise<Kms.KmsEncryptReturn> {
    const keyAgreement = 'keyAgreement' in options.key ? options.key.keyAgreement : undefined
    if (keyAgreement?.algorithm !== 'ECDH-HSALSA20' || options.encryption.algorithm !== 'XSALSA20-POLY1305') {
      return this.node.encrypt(agentContext, options)
    }
    await sodiumReady()
    const recipientPublicKey = TypedArrayEncoder.fromBase64(keyAgreement.externalPublicJwk.x)
    if (!keyAgreement.keyId) return { encrypted: toBuffer(sealAnonymous(options.data, recipientPublicKey)) }
    const sender = await this.x25519KeyPair(agentContext, keyAgreement.keyId)
    const nonce = options.encryption.iv ?? randomNonce()
    if (nonce.length !== BOX_NONCE_BYTES) throw new Kms.KeyManagementError('XSALSA20-POLY1305 needs a 24-byte iv')
    return { encrypted: toBuffer(sealAuthenticated(options.data, nonce, recipientPublicKey, sender)), iv: nonce }
  }

  public async decrypt(agentContext: AgentContext, options: Kms.KmsDecryptOptions): Promise<Kms.KmsDecryptReturn> {
    const keyAgreement = 'keyAgreement' in options.key ? options.key.keyAgreement : undefined
    if (keyAgreement?.algorithm !== 'ECDH-HSALSA20' || options.decryption.algorithm !== 'XSALSA20-POLY1305') {
      return this.node.decrypt(agentContext, options)
    }
    await sodiumReady()
    const recipient = await this.x25519KeyPair(agentContext, keyAgreement.keyId)
    try {
      if (!keyAgreement.externalPublicJwk) return { data: toBuffer(openAnonymous(options.encrypted, recipient)) }
      if (!options.decryption.iv) throw new Kms.KeyManagementError('Authenticated XSALSA20-POLY1305 needs an iv')
      const senderPublicKey = TypedArrayEncoder.fromBase64(keyAgreement.externalPublicJwk.x)
      return {
        data: toBuffer(openAuthenticated(options.encrypted, options.decryption.iv, senderPublicKey, recipient)),
      }
    } catch (error) {
      if (error instanceof Kms.KeyManagementError) throw error
      throw new Kms.KeyManagementError('Could not decrypt the DIDComm v1 box', { cause: asError(error) })
    }
  }

  private async x25519KeyPair(agentContext: AgentContext, keyId: string): Promise<X25519KeyPair> {
    const jwk = await this.keys.get(agentContext, keyId)
    if (!jwk) throw new Kms.KeyManagementKeyNotFoundError(keyId, [this.backend])
    if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && jwk.d) {
      let pair = this.derivedX25519.get(jwk.d)
      if (!pair) {
        pair = x25519FromEd25519Seed(TypedArrayEncoder.fromBase64(jwk.d))
        this.derivedX25519.set(jwk.d, pair)
      }
      return pair
    }
    if (jwk.kty === 'OKP' && jwk.crv === 'X25519' && jwk.d) {
      return x25519FromPrivateScalar(TypedArrayEncoder.fromBase64(jwk.d))
    }
    throw new Kms.KeyManagementAlgorithmNotSupportedError(
      'ECDH-HSALSA20 with a key that is not Ed25519 or X25519',
      this.backend,
    )
  }
}

function isDidcommV1Box(operation: Kms.KmsOperation): boolean {
  if (operation.operation === 'encrypt') {
    return (
      operation.encryption.algorithm === 'XSALSA20-POLY1305' && operation.keyAgreement?.algorithm === 'ECDH-HSALSA20'
    )
  }
  if (operation.operation === 'decrypt') {
    return (
      operation.decryption.algorithm === 'XSALSA20-POLY1305' && operation.keyAgreement?.algorithm === 'ECDH-HSALSA20'
    )
  }
  return false
}

/** Credo's return types want an ArrayBuffer-backed Uint8Array; libsodium's results already are, this says so. */
function toBuffer(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes)
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error))
}
