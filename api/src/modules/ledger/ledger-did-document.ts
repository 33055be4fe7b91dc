import sodium from 'libsodium-wrappers'
import { decodeBase58, encodeBase58 } from '@idplane/common/base58'
import type { AttribPayload } from './ledger-payloads'

/**
 * DID documents of ledger DIDs, shaped as Credo's indy-vdr resolvers build them so Credo's DIDComm accepts them:
 * did:indy has `#verkey` (Ed25519VerificationKey2018), did:sov `#key-1`; both have `#key-agreement-1`
 * (X25519KeyAgreementKey2019, the verkey converted to Curve25519) and, with an ATTRIB endpoint, an `endpoint`
 * service and a `did-communication` service whose recipient is the key-agreement key.
 */

export interface DidDocumentInput {
  /** The full DID (`did:indy:<ns>:<id>` or `did:sov:<id>`). */
  id: string
  method: 'indy' | 'sov'
  verkey: string
  endpoint?: AttribPayload['raw']['endpoint']
}

const DID_CONTEXT = 'https://www.w3.org/ns/did/v1'
const ED25519_CONTEXT = 'https://w3id.org/security/suites/ed25519-2018/v1'
const X25519_CONTEXT = 'https://w3id.org/security/suites/x25519-2019/v1'
/** Indy's default when an endpoint ATTRIB names no types (what indy-vdr's resolvers assume). */
const DEFAULT_ENDPOINT_TYPES = ['endpoint', 'did-communication']

/** The Curve25519 key of an Ed25519 verkey (base58 in, base58 out). */
export async function x25519FromVerkey(verkey: string): Promise<string> {
  await sodium.ready
  const bytes = decodeBase58(verkey)
  if (bytes?.length !== 32) throw new Error('A verkey is 32 bytes of base58')
  return encodeBase58(sodium.crypto_sign_ed25519_pk_to_curve25519(bytes))
}

export async function buildDidDocument(input: DidDocumentInput): Promise<Record<string, unknown>> {
  const { id, method, verkey, endpoint } = input
  const verificationId = `${id}${method === 'indy' ? '#verkey' : '#key-1'}`
  const keyAgreementId = `${id}#key-agreement-1`
  const types = endpoint?.types ?? DEFAULT_ENDPOINT_TYPES
  const services: Record<string, unknown>[] = []
  if (endpoint && types.includes('endpoint')) {
    services.push({ id: `${id}#endpoint`, type: 'endpoint', serviceEndpoint: endpoint.endpoint })
  }
  if (endpoint && types.includes('did-communication')) {
    services.push({
      id: `${id}#did-communication`,
      type: 'did-communication',
      priority: 0,
      recipientKeys: [keyAgreementId],
      routingKeys: endpoint.routingKeys ?? [],
      accept: ['didcomm/aip2;env=rfc19'],
      serviceEndpoint: endpoint.endpoint,
    })
  }
  return {
    '@context': [DID_CONTEXT, ED25519_CONTEXT, X25519_CONTEXT],
    id,
    verificationMethod: [
      { id: verificationId, type: 'Ed25519VerificationKey2018', controller: id, publicKeyBase58: verkey },
      {
        id: keyAgreementId,
        type: 'X25519KeyAgreementKey2019',
        controller: id,
        publicKeyBase58: await x25519FromVerkey(verkey),
      },
    ],
    authentication: [verificationId],
    assertionMethod: [verificationId],
    keyAgreement: [keyAgreementId],
    ...(services.length > 0 ? { service: services } : {}),
  }
}
