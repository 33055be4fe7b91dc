import {
  createHash,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
  verify,
  X509Certificate,
} from 'node:crypto'

import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc'
import { OpenID4VCIClientV1_0_15 } from '@sphereon/oid4vci-client'

/**
 * A holder that shares no code with Credo: Sphereon's OID4VCI client (@sphereon/oid4vci-client, draft 15 with the
 * 1.0 nonce endpoint) receives the credential, the SD-JWT library (@sd-jwt/sd-jwt-vc) verifies it and makes the
 * presentation, and the OID4VP side (fetching and checking the signed request, posting a direct_post response) is
 * written here on node:crypto. Keys are node:crypto P-256 keys.
 */

/** A credential the independent holder received, with the key it is bound to. */
export interface HeldSdJwtVc {
  credential: string
  holderKey: { privateKey: KeyObject; publicKey: KeyObject }
}

/** Redeems a pre-authorized offer with Sphereon's client, the proof of possession signed by a fresh P-256 key. */
export async function receiveSdJwtVc(offer: {
  offerUri: string
  txCode?: string
  configurationId: string
}): Promise<HeldSdJwtVc> {
  const holderKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const holderJwk = holderKey.publicKey.export({ format: 'jwk' })
  const client = await OpenID4VCIClientV1_0_15.fromURI({ uri: offer.offerUri, clientId: 'independent-wallet' })
  await client.acquireAccessToken({ pin: offer.txCode })
  const response = await client.acquireCredentials({
    credentialConfigurationId: offer.configurationId,
    format: 'dc+sd-jwt',
    alg: 'ES256',
    jwk: { kty: 'EC', crv: 'P-256', x: String(holderJwk.x), y: String(holderJwk.y) },
    proofCallbacks: {
      signCallback: async (jwt) => signJwt(holderKey.privateKey, jwt.header ?? {}, jwt.payload ?? {}),
    },
  })
  return { credential: credentialOf(response as unknown as Record<string, unknown>), holderKey }
}

/**
 * The SD-JWT VC library as the holder uses it: it verifies a credential's x5c leaf against `trustedCertificate`
 * (base64 DER: the leaf itself, or the authority that issued it) and signs key binding JWTs with the holder's key.
 */
export function sdJwtInstance(holderPrivateKey: KeyObject, trustedCertificate: string): SDJwtVcInstance {
  return new SDJwtVcInstance({
    hasher: (data) =>
      new Uint8Array(
        createHash('sha256')
          .update(typeof data === 'string' ? data : Buffer.from(data))
          .digest(),
      ),
    hashAlg: 'sha-256',
    saltGenerator: () => randomBytes(16).toString('base64url'),
    kbSigner: (data) =>
      sign('sha256', Buffer.from(data), { key: holderPrivateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url'),
    kbSignAlg: 'ES256',
    verifier: (data, signature) => {
      const [header] = data.split('.')
      const { x5c } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { x5c: string[] }
      const leaf = new X509Certificate(Buffer.from(x5c[0], 'base64'))
      const anchor = new X509Certificate(Buffer.from(trustedCertificate, 'base64'))
      // The anchor is the leaf itself (self-signed, its key usage need not allow signing certificates) or its issuer.
      const issued = leaf.raw.equals(anchor.raw) || leaf.checkIssued(anchor)
      if (!issued || !leaf.verify(anchor.publicKey)) return false
      return verify(
        'sha256',
        Buffer.from(data),
        { key: leaf.publicKey, dsaEncoding: 'ieee-p1363' },
        Buffer.from(signature, 'base64url'),
      )
    },
  })
}

export type RequestPayload = Record<string, unknown>

/**
 * Fetches the signed request an `openid4vp://` link points to and returns its payload, after checking its signature
 * with the x5c leaf and that leaf against the verifier's certificate the holder trusts (base64 DER).
 */
export async function fetchVerifiedRequest(requestUri: string, trustedCertificate: string): Promise<RequestPayload> {
  const uri = new URL(requestUri).searchParams.get('request_uri')
  if (!uri) throw new Error(`no request_uri in ${requestUri}`)
  const response = await fetch(uri)
  const jwt = await response.text()
  if (!response.ok) throw new Error(`request_uri answered ${response.status}: ${jwt.slice(0, 500)}`)
  const [header, payload, signature] = jwt.split('.')
  const { x5c, alg } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { x5c: string[]; alg: string }
  if (alg !== 'ES256') throw new Error(`unexpected request signature algorithm ${alg}`)
  const leaf = parsedCertificate(x5c[0], header)
  if (!leaf.raw.equals(Buffer.from(trustedCertificate, 'base64')))
    throw new Error('request signed by an untrusted leaf')
  const key = createPublicKey(leaf.publicKey.export({ format: 'pem', type: 'spki' }))
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  )
  if (!signed) throw new Error('the request signature does not verify')
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as RequestPayload
}

/** The claim names a DCQL request asks of its first credential query, with that query's id. */
export function askedClaims(request: RequestPayload): { queryId: string; names: string[] } {
  const [query] = (request.dcql_query as { credentials: { id: string; claims: { path: string[] }[] }[] }).credentials
  return { queryId: query.id, names: query.claims.map((claim) => claim.path[0]) }
}

/** A presentation made by the SD-JWT library disclosing `names`, key-bound to the request's audience and nonce. */
export async function presentSdJwtVc(
  held: HeldSdJwtVc,
  trustedCertificate: string,
  names: string[],
  request: RequestPayload,
): Promise<string> {
  return sdJwtInstance(held.holderKey.privateKey, trustedCertificate).present(
    held.credential,
    Object.fromEntries(names.map((name) => [name, true])),
    {
      kb: {
        payload: {
          iat: Math.floor(Date.now() / 1000),
          aud: String(request.client_id),
          nonce: String(request.nonce),
        },
      },
    },
  )
}

/**
 * A presentation built by hand disclosing `names`, with the `tamper` claim's disclosure (if given) changed to another
 * value, and a key binding JWT the holder's key honestly signs over exactly that presentation (right audience and
 * nonce): only the disclosure's digest, which the issuer signed, can give the change away.
 */
export function presentBuiltByHand(
  held: HeldSdJwtVc,
  names: string[],
  request: RequestPayload,
  tamper?: { name: string; value: unknown },
): string {
  const [issuerJwt, ...disclosures] = held.credential.split('~').filter((part) => part !== '')
  // Untouched disclosures keep their bytes: their digests are what the issuer signed.
  const chosen = disclosures.flatMap((disclosure) => {
    const [salt, name] = JSON.parse(Buffer.from(disclosure, 'base64url').toString('utf8')) as [string, string, unknown]
    if (!names.includes(name)) return []
    return [name === tamper?.name ? base64url([salt, name, tamper.value]) : disclosure]
  })
  if (chosen.length !== names.length) throw new Error(`not every one of ${names.join(', ')} is disclosable`)
  const presentation = `${[issuerJwt, ...chosen].join('~')}~`
  const keyBinding = signJwt(
    held.holderKey.privateKey,
    { typ: 'kb+jwt' },
    {
      iat: Math.floor(Date.now() / 1000),
      aud: String(request.client_id),
      nonce: String(request.nonce),
      sd_hash: createHash('sha256').update(presentation).digest('base64url'),
    },
  )
  return `${presentation}${keyBinding}`
}

/** A direct_post response as a wallet sends it (form-encoded, `vp_token` as JSON keyed by query id). */
export async function postResponse(
  request: RequestPayload,
  response: { vp_token: Record<string, string[]>; state?: string },
): Promise<Response> {
  return fetch(String(request.response_uri), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      vp_token: JSON.stringify(response.vp_token),
      state: response.state ?? String(request.state),
    }).toString(),
  })
}

function signJwt(key: KeyObject, header: object, payload: object): string {
  const input = `${base64url({ ...header, alg: 'ES256' })}.${base64url(payload)}`
  return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url')
}

/** The one credential of a credential response (OID4VCI 1.0 `credentials`, or draft 13's `credential`). */
function credentialOf(response: Record<string, unknown>): string {
  const credentials = response.credentials as { credential: string }[] | undefined
  const credential = credentials?.[0]?.credential ?? response.credential
  if (typeof credential !== 'string') throw new Error(`no credential in ${JSON.stringify(response).slice(0, 300)}`)
  return credential
}

/**
 * The x5c leaf as Node parses it; a leaf OpenSSL refuses fails with the encoded header in the message, so the bytes
 * show (the one seen was a certificate serial with a superfluous zero byte: docs/decisions.md, "x509 serial numbers").
 */
function parsedCertificate(encoded: string, header: string): X509Certificate {
  try {
    return new X509Certificate(Buffer.from(encoded, 'base64'))
  } catch (error) {
    throw new Error(`the request's x5c leaf does not parse (${(error as Error).message}); header ${header}`, {
      cause: error,
    })
  }
}
