import { attributeCommonView } from './attributes'
import { LINK_SECRET_ATTRIBUTE } from './cl/constants'
import {
  generatePrimaryKey,
  type KeyCorrectness,
  type PrimaryPrivateKey,
  type PrimaryPublicKey,
} from './cl/primary-key'
import { AnonCredsError, malformed } from './errors'
import { assertIdentifier } from './identifiers'
import { bitLength, toDecimal } from './math'
import { readArray, readBigint, readEntries, readObject, readString, type Json } from './read'
import {
  generateRevocationKeys,
  readRevocationPrivateKey,
  readRevocationPublicKey,
  type RevocationPrivateKey,
  type RevocationPublicKey,
} from './revocation/keys'
import { readingRevocation } from './revocation/registry'
import { readSchema } from './schema'
import type {
  CredentialDefinition,
  CredentialDefinitionPrivate,
  CredentialPrimaryPublicKey,
  KeyCorrectnessProof,
} from './types'

export interface CreateCredentialDefinitionOptions {
  schemaId: string
  schema: Json
  issuerId: string
  tag: string
  signatureType?: 'CL'
  supportRevocation?: boolean
}

export interface CreateCredentialDefinitionResult {
  credentialDefinition: CredentialDefinition
  credentialDefinitionPrivate: CredentialDefinitionPrivate
  keyCorrectnessProof: KeyCorrectnessProof
}

/**
 * A CL credential definition for a schema: a fresh 2048-bit key (two 1024-bit safe primes from OpenSSL),
 * one R per attribute (common view of its name) plus master_secret for the link secret; with `supportRevocation`
 * also the revocation key pair on the pairing curve (`value.revocation`, private `r_key`), as anoncreds-rs.
 */
export async function createCredentialDefinition(
  options: CreateCredentialDefinitionOptions,
): Promise<CreateCredentialDefinitionResult> {
  const schemaId = assertIdentifier('schemaId', readString(options.schemaId, 'schemaId'), 'schemaId')
  const issuerId = assertIdentifier('issuerId', readString(options.issuerId, 'issuerId'), 'issuerId')
  const tag = readString(options.tag, 'tag', { nonEmpty: false, maxLength: 256 })
  if ((options.signatureType ?? 'CL') !== 'CL') throw malformed('signatureType', 'only CL is supported')
  if (options.supportRevocation !== undefined && typeof options.supportRevocation !== 'boolean')
    throw malformed('supportRevocation', 'expected a boolean')
  const schema = readSchema(options.schema)
  const names = schema.attrNames.map(attributeCommonView)
  if (new Set(names).size !== names.length) {
    throw malformed('schema.attrNames', 'two attribute names are equal without spaces and case')
  }
  const { publicKey, privateKey, correctness } = await generatePrimaryKey([LINK_SECRET_ATTRIBUTE, ...names])
  const revocation = options.supportRevocation ? generateRevocationKeys() : undefined
  return {
    credentialDefinition: {
      schemaId,
      type: 'CL',
      tag,
      value: {
        primary: writePrimaryPublicKey(publicKey),
        ...(revocation ? { revocation: revocation.publicKey } : {}),
      },
      issuerId,
    },
    credentialDefinitionPrivate: {
      value: {
        p_key: { p: toDecimal(privateKey.p), q: toDecimal(privateKey.q) },
        r_key: revocation ? revocation.privateKey : null,
      },
    },
    keyCorrectnessProof: writeKeyCorrectnessProof(correctness),
  }
}

export function writePrimaryPublicKey(key: PrimaryPublicKey): CredentialPrimaryPublicKey {
  const r: Record<string, string> = {}
  for (const [name, value] of key.r) r[name] = toDecimal(value)
  return { n: toDecimal(key.n), s: toDecimal(key.s), r, rctxt: toDecimal(key.rctxt), z: toDecimal(key.z) }
}

export function writeKeyCorrectnessProof(proof: KeyCorrectness): KeyCorrectnessProof {
  return {
    c: toDecimal(proof.c),
    xz_cap: toDecimal(proof.xzCap),
    xr_cap: proof.xrCap.map(([name, value]) => [name, toDecimal(value)]),
  }
}

export interface ParsedCredentialDefinition {
  json: CredentialDefinition
  publicKey: PrimaryPublicKey
  /** The revocation public key, null for a definition without revocation. */
  revocation: RevocationPublicKey | null
}

/** A modulus below this cannot be a CL key anyone should trust (ours and anoncreds-rs's are 2048 bits). */
const MIN_MODULUS_BITS = 1024

/** Reads a credential definition and its primary key; every group element must lie in [2, n). */
export function readCredentialDefinition(value: Json, path = 'credentialDefinition'): ParsedCredentialDefinition {
  const definition = readObject(value, path)
  if (definition.type !== 'CL') throw malformed(`${path}.type`, 'only CL credential definitions are supported')
  const body = readObject(definition.value, `${path}.value`)
  const revocationJson = body.revocation
  const revocation =
    revocationJson === undefined || revocationJson === null
      ? null
      : readingRevocation(`${path}.value.revocation`, () =>
          readRevocationPublicKey(revocationJson, `${path}.value.revocation`),
        )
  const primary = readObject(body.primary, `${path}.value.primary`)
  const p = `${path}.value.primary`
  const n = readBigint(primary.n, `${p}.n`)
  if (bitLength(n) < MIN_MODULUS_BITS || (n & 1n) === 0n) throw malformed(`${p}.n`, 'is not a CL modulus')
  const element = (raw: Json, at: string) => {
    const x = readBigint(raw, at, { maxBits: bitLength(n) })
    if (x < 2n || x >= n) throw malformed(at, 'is not an element of the group')
    return x
  }
  const r = new Map<string, bigint>()
  for (const [name, raw] of readEntries(primary.r, `${p}.r`, 130)) r.set(name, element(raw, `${p}.r.${name}`))
  // Indy-era definitions carried the link secret's base as `rms` beside `r`; anoncreds-rs folds it in.
  if (primary.rms !== undefined && primary.rms !== null && !r.has(LINK_SECRET_ATTRIBUTE)) {
    r.set(LINK_SECRET_ATTRIBUTE, element(primary.rms, `${p}.rms`))
  }
  if (!r.has(LINK_SECRET_ATTRIBUTE)) throw malformed(`${p}.r`, `has no ${LINK_SECRET_ATTRIBUTE}`)
  const publicKey: PrimaryPublicKey = {
    n,
    s: element(primary.s, `${p}.s`),
    r,
    rctxt: element(primary.rctxt, `${p}.rctxt`),
    z: element(primary.z, `${p}.z`),
  }
  const json: CredentialDefinition = {
    schemaId: assertIdentifier('schemaId', readString(definition.schemaId, `${path}.schemaId`), `${path}.schemaId`),
    type: 'CL',
    tag: readString(definition.tag, `${path}.tag`, { nonEmpty: false }),
    value: {
      primary: writePrimaryPublicKey(publicKey),
      // Parsed (points on the curve, G2 points in the group), written back as given.
      ...(revocation ? { revocation: revocationJson as CredentialDefinition['value']['revocation'] } : {}),
    },
    issuerId: assertIdentifier('issuerId', readString(definition.issuerId, `${path}.issuerId`), `${path}.issuerId`),
  }
  return { json, publicKey, revocation }
}

export interface ParsedCredentialDefinitionPrivate extends PrimaryPrivateKey {
  /** The revocation secrets, null for a definition without revocation. */
  revocation: RevocationPrivateKey | null
}

/**
 * Reads the private part and checks it belongs to the definition: p and q factor the modulus; the revocation
 * secrets give the public pk = g^sk and y = h_cap^x (and are present exactly when the definition has revocation).
 */
export function readCredentialDefinitionPrivate(
  value: Json,
  definition: Pick<ParsedCredentialDefinition, 'publicKey' | 'revocation'>,
  path = 'credentialDefinitionPrivate',
): ParsedCredentialDefinitionPrivate {
  const publicKey = definition.publicKey
  const body = readObject(readObject(value, path).value, `${path}.value`)
  const rKeyJson = body.r_key
  const revocation =
    rKeyJson === undefined || rKeyJson === null
      ? null
      : readingRevocation(`${path}.value.r_key`, () => readRevocationPrivateKey(rKeyJson, `${path}.value.r_key`))
  if ((revocation === null) !== (definition.revocation === null)) {
    throw new AnonCredsError(
      'invalid',
      'the private key and the credential definition differ in revocation support',
      `${path}.value.r_key`,
    )
  }
  if (revocation && definition.revocation) {
    const key = definition.revocation
    if (
      !key.g.multiply(nonZero(revocation.sk)).equals(key.pk) ||
      !key.hCap.multiply(nonZero(revocation.x)).equals(key.y)
    )
      throw new AnonCredsError(
        'invalid',
        'the revocation private key does not belong to this credential definition',
        `${path}.value.r_key`,
      )
  }
  const key = readObject(body.p_key, `${path}.value.p_key`)
  const p = readBigint(key.p, `${path}.value.p_key.p`)
  const q = readBigint(key.q, `${path}.value.p_key.q`)
  // The private key must factor this definition's modulus, or every signature would be garbage.
  if ((2n * p + 1n) * (2n * q + 1n) !== publicKey.n) {
    throw new AnonCredsError('invalid', 'the private key does not belong to this credential definition', path)
  }
  return { p, q, revocation }
}

/** A zero secret has no use (and noble refuses to multiply by it); it cannot match a real public key. */
function nonZero(scalar: bigint): bigint {
  if (scalar === 0n) throw new AnonCredsError('invalid', 'a revocation secret is zero')
  return scalar
}

export function readKeyCorrectnessProof(value: Json, path = 'keyCorrectnessProof'): KeyCorrectness {
  const proof = readObject(value, path)
  const xrCap = readArray(proof.xr_cap, `${path}.xr_cap`, 130).map((pair, i): [string, bigint] => {
    const entry = readArray(pair, `${path}.xr_cap[${i}]`, 2)
    if (entry.length !== 2) throw malformed(`${path}.xr_cap[${i}]`, 'expected [name, value]')
    return [
      readString(entry[0], `${path}.xr_cap[${i}][0]`, { maxLength: 256 }),
      readBigint(entry[1], `${path}.xr_cap[${i}][1]`, { maxBits: 8192 }),
    ]
  })
  return {
    c: readBigint(proof.c, `${path}.c`, { maxBits: 256 }),
    xzCap: readBigint(proof.xz_cap, `${path}.xz_cap`, { maxBits: 8192 }),
    xrCap,
  }
}
