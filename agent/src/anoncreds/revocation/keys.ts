/**
 * The credential definition's revocation key pair (CKS accumulator and the signature on the revocation index), and
 * readers that turn the JSON revocation objects into group elements. Readers throw EncodingError; the callers turn
 * it into AnonCredsError('malformed').
 */
import { randomBytes } from 'node:crypto'

import { Fr, G1, G2, R, type G1Point, type G2Point } from './bn254'
import { g1Mul, g2Mul } from './multiply'
import { formatG1, formatG2, formatScalar, parseG1, parseG2, parseScalar } from './encoding'
import type {
  CredentialRevocationPrivateKeyJson,
  CredentialRevocationPublicKeyJson,
  NonRevocationCredentialSignatureJson,
} from './types'

export interface RevocationPublicKey {
  g: G1Point
  gDash: G2Point
  h: G1Point
  h0: G1Point
  h1: G1Point
  h2: G1Point
  htilde: G1Point
  hCap: G2Point
  u: G2Point
  pk: G1Point
  y: G2Point
}

export interface RevocationPrivateKey {
  x: bigint
  sk: bigint
}

/** A uniformly random scalar in [0, r) (clsignatures' GroupOrderElement::new). */
export function randomScalar(): bigint {
  return Fr.create(BigInt('0x' + randomBytes(64).toString('hex')))
}

function randomG1(): G1Point {
  return g1Mul(G1.BASE, randomScalar())
}

function randomG2(): G2Point {
  return g2Mul(G2.BASE, randomScalar())
}

/** clsignatures' _new_credential_revocation_keys: random generators, pk = g^sk, y = h_cap^x. */
export function generateRevocationKeys(): {
  publicKey: CredentialRevocationPublicKeyJson
  privateKey: CredentialRevocationPrivateKeyJson
} {
  const g = randomG1()
  const hCap = randomG2()
  const x = randomScalar()
  const sk = randomScalar()
  const publicKey: CredentialRevocationPublicKeyJson = {
    g: formatG1(g),
    g_dash: formatG2(randomG2()),
    h: formatG1(randomG1()),
    h0: formatG1(randomG1()),
    h1: formatG1(randomG1()),
    h2: formatG1(randomG1()),
    htilde: formatG1(randomG1()),
    h_cap: formatG2(hCap),
    u: formatG2(randomG2()),
    pk: formatG1(g1Mul(g, sk)),
    y: formatG2(g2Mul(hCap, x)),
  }
  return { publicKey, privateKey: { x: formatScalar(x), sk: formatScalar(sk) } }
}

function field(json: unknown, name: string, path: string): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new TypeError(`${path}: expected an object`)
  }
  return (json as Record<string, unknown>)[name]
}

/**
 * Parsed keys are cached per JSON object and by content (the most recent few): a verifier reads the same definition
 * for every presentation, often as a new object, and the cached points keep their pairing line coefficients.
 */
const publicKeys = new WeakMap<object, RevocationPublicKey>()
const recentKeys = new Map<string, RevocationPublicKey>()
const RECENT_KEYS = 64
const KEY_FIELDS = ['g', 'g_dash', 'h', 'h0', 'h1', 'h2', 'htilde', 'h_cap', 'u', 'pk', 'y'] as const

export function readRevocationPublicKey(json: unknown, path: string): RevocationPublicKey {
  if (typeof json === 'object' && json !== null) {
    const cached = publicKeys.get(json)
    if (cached) return cached
  }
  const texts = KEY_FIELDS.map((name) => field(json, name, path))
  const content = texts.every((text) => typeof text === 'string') ? texts.join('|') : undefined
  const recent = content === undefined ? undefined : recentKeys.get(content)
  if (recent) {
    publicKeys.set(json as object, recent)
    return recent
  }
  const g1 = (name: string) => parseG1(field(json, name, path), `${path}.${name}`)
  const g2 = (name: string) => parseG2(field(json, name, path), `${path}.${name}`)
  const key: RevocationPublicKey = {
    g: g1('g'),
    gDash: g2('g_dash'),
    h: g1('h'),
    h0: g1('h0'),
    h1: g1('h1'),
    h2: g1('h2'),
    htilde: g1('htilde'),
    hCap: g2('h_cap'),
    u: g2('u'),
    pk: g1('pk'),
    y: g2('y'),
  }
  publicKeys.set(json as object, key)
  if (content !== undefined) {
    if (recentKeys.size >= RECENT_KEYS) recentKeys.delete(recentKeys.keys().next().value as string)
    recentKeys.set(content, key)
  }
  return key
}

export function readRevocationPrivateKey(json: unknown, path: string): RevocationPrivateKey {
  return {
    x: parseScalar(field(json, 'x', path), `${path}.x`),
    sk: parseScalar(field(json, 'sk', path), `${path}.sk`),
  }
}

export interface NonRevocationCredential {
  sigma: G1Point
  c: bigint
  vrPrimePrime: bigint
  sigmaI: G2Point
  uI: G2Point
  gI: G1Point
  i: number
  m2: bigint
}

export function readNonRevocationCredential(json: unknown, path: string): NonRevocationCredential {
  const witnessSignature = field(json, 'witness_signature', path)
  const i = field(json, 'i', path)
  if (typeof i !== 'number' || !Number.isSafeInteger(i) || i < 1 || i > 0xffffffff) {
    throw new TypeError(`${path}.i: expected a revocation index`)
  }
  const gI = parseG1(field(json, 'g_i', path), `${path}.g_i`)
  const signatureGI = parseG1(
    field(witnessSignature, 'g_i', `${path}.witness_signature`),
    `${path}.witness_signature.g_i`,
  )
  if (!gI.equals(signatureGI)) throw new TypeError(`${path}.witness_signature.g_i: differs from g_i`)
  return {
    sigma: parseG1(field(json, 'sigma', path), `${path}.sigma`),
    c: parseScalar(field(json, 'c', path), `${path}.c`),
    vrPrimePrime: parseScalar(field(json, 'vr_prime_prime', path), `${path}.vr_prime_prime`),
    sigmaI: parseG2(
      field(witnessSignature, 'sigma_i', `${path}.witness_signature`),
      `${path}.witness_signature.sigma_i`,
    ),
    uI: parseG2(field(witnessSignature, 'u_i', `${path}.witness_signature`), `${path}.witness_signature.u_i`),
    gI,
    i,
    m2: parseScalar(field(json, 'm2', path), `${path}.m2`),
  }
}

export function formatNonRevocationCredential(cred: NonRevocationCredential): NonRevocationCredentialSignatureJson {
  const gI = formatG1(cred.gI)
  return {
    sigma: formatG1(cred.sigma),
    c: formatScalar(cred.c),
    vr_prime_prime: formatScalar(cred.vrPrimePrime),
    witness_signature: { sigma_i: formatG2(cred.sigmaI), u_i: formatG2(cred.uI), g_i: gI },
    g_i: gI,
    i: cred.i,
    m2: formatScalar(cred.m2),
  }
}

/** A big integer reduced into the scalar group (clsignatures' bignum_to_group_element_reduce). */
export function reduceToScalar(value: bigint): bigint {
  const v = value % R
  return v < 0n ? v + R : v
}
