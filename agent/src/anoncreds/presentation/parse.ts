/**
 * Reads the untrusted JSON a presentation needs (schemas, credential definitions, credentials, presentation
 * requests, presentations) into typed values. Anything that does not have the anoncreds-rs shape is an
 * AnonCredsError of kind `malformed` naming the path; nothing here throws anything else.
 */
import { attributeCommonView } from '../attributes'
import { malformed } from '../errors'
import { parseDecimal } from '../math'
import type {
  ClPredicate,
  EqProof,
  GeProof,
  PredicateType,
  PrimaryProof,
  PrimaryPublicKey,
  PrimarySignature,
} from './cl-proof'
import { readNonRevocationCredential, type NonRevocationCredential } from '../revocation/keys'
import { readNonRevocationProof, type NonRevocationProof } from '../revocation/non-revocation-proof'
import { readingRevocation } from '../revocation/registry'
import { parseRestrictions, type Query } from './restrictions'

export type Json = Record<string, unknown>

/** anoncreds-rs attr_common_view: attribute names compare without spaces and case. */
export const canonicalAttributeName = attributeCommonView

export function object(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed(path, 'must be an object')
  return value as Json
}

export function string(value: unknown, path: string): string {
  if (typeof value !== 'string') throw malformed(path, 'must be a string')
  return value
}

export function nonEmptyString(value: unknown, path: string): string {
  const text = string(value, path)
  if (text.length === 0) throw malformed(path, 'must not be empty')
  return text
}

export function decimal(value: unknown, path: string): bigint {
  const parsed = parseDecimal(value)
  if (parsed === null) throw malformed(path, 'must be a decimal integer string')
  return parsed
}

function positiveDecimal(value: unknown, path: string): bigint {
  const parsed = decimal(value, path)
  if (parsed <= 0n) throw malformed(path, 'must be positive')
  return parsed
}

export function i32(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < -(2 ** 31) || value > 2 ** 31 - 1) {
    throw malformed(path, 'must be a 32-bit integer')
  }
  return value
}

export function index(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 2 ** 32 - 1) {
    throw malformed(path, 'must be a non-negative integer')
  }
  return value
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null
}

export function entries(value: unknown, path: string): [string, unknown][] {
  return Object.entries(object(value, path))
}

/** The object's own entry for a key (an id like `constructor` must not find Object.prototype's). */
export function own(record: Json, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined
}

// Referents and attribute names become keys of plain objects in the presentation JSON.
function safeKey(key: string, path: string): string {
  if (key === '__proto__') throw malformed(path, 'must not be "__proto__"')
  return key
}

export interface Schema {
  readonly issuerId: string
  readonly name: string
  readonly version: string
  /** Canonical attribute names. */
  readonly attrNames: readonly string[]
}

export function parseSchema(value: unknown, path: string): Schema {
  const json = object(value, path)
  const names = json.attrNames
  if (!Array.isArray(names) || names.length === 0) throw malformed(`${path}.attrNames`, 'must be a non-empty array')
  const attrNames = names.map((name, i) => canonicalAttributeName(nonEmptyString(name, `${path}.attrNames[${i}]`)))
  if (new Set(attrNames).size !== attrNames.length) throw malformed(`${path}.attrNames`, 'has duplicate names')
  return {
    issuerId: nonEmptyString(json.issuerId, `${path}.issuerId`),
    name: string(json.name, `${path}.name`),
    version: string(json.version, `${path}.version`),
    attrNames,
  }
}

export interface CredentialDefinition {
  readonly issuerId: string
  readonly schemaId: string
  readonly publicKey: PrimaryPublicKey
  /** The `value.revocation` JSON, or null for a definition without revocation. */
  readonly revocation: unknown
}

export function parseCredentialDefinition(value: unknown, path: string): CredentialDefinition {
  const json = object(value, path)
  if (json.type !== 'CL') throw malformed(`${path}.type`, 'must be "CL"')
  const primary = object(object(json.value, `${path}.value`).primary, `${path}.value.primary`)
  const p = `${path}.value.primary`
  const r = new Map<string, bigint>()
  for (const [name, key] of entries(primary.r, `${p}.r`)) r.set(name, positiveDecimal(key, `${p}.r.${name}`))
  const n = positiveDecimal(primary.n, `${p}.n`)
  const publicKey: PrimaryPublicKey = {
    n,
    s: positiveDecimal(primary.s, `${p}.s`),
    z: positiveDecimal(primary.z, `${p}.z`),
    rctxt: positiveDecimal(primary.rctxt, `${p}.rctxt`),
    r,
  }
  if (n % 2n === 0n || n < 1n << 1000n) throw malformed(`${p}.n`, 'is not an RSA modulus')
  const revocation = object(json.value, `${path}.value`).revocation
  return {
    issuerId: nonEmptyString(json.issuerId, `${path}.issuerId`),
    schemaId: nonEmptyString(json.schemaId, `${path}.schemaId`),
    publicKey,
    // Read when a proof needs it (revocation/keys.ts), so definitions without revocation stay cheap.
    revocation: isAbsent(revocation) ? null : revocation,
  }
}

export interface AttributeValue {
  readonly raw: string
  readonly encoded: string
}

export interface Credential {
  readonly schemaId: string
  readonly credDefId: string
  readonly revRegId: string | null
  /** By canonical attribute name. */
  readonly values: ReadonlyMap<string, AttributeValue>
  readonly signature: PrimarySignature
  /** The processed non-revocation signature (`r_credential`), null for a credential without revocation. */
  readonly revocation: NonRevocationCredential | null
}

export function parseCredential(value: unknown, path: string): Credential {
  const json = object(value, path)
  const values = new Map<string, AttributeValue>()
  for (const [name, entry] of entries(json.values, `${path}.values`)) {
    const attr = object(entry, `${path}.values.${name}`)
    const encoded = string(attr.encoded, `${path}.values.${name}.encoded`)
    decimal(encoded, `${path}.values.${name}.encoded`)
    const key = canonicalAttributeName(name)
    if (values.has(key)) throw malformed(`${path}.values`, `has attribute "${name}" twice`)
    values.set(key, { raw: string(attr.raw, `${path}.values.${name}.raw`), encoded })
  }
  const signature = object(json.signature, `${path}.signature`)
  const rPath = `${path}.signature.r_credential`
  const revocation = isAbsent(signature.r_credential)
    ? null
    : readingRevocation(rPath, () => readNonRevocationCredential(signature.r_credential, rPath))
  const revRegId = isAbsent(json.rev_reg_id) ? null : nonEmptyString(json.rev_reg_id, `${path}.rev_reg_id`)
  if ((revocation === null) !== (revRegId === null))
    throw malformed(`${path}.rev_reg_id`, 'must be given exactly when the signature has r_credential')
  const p = object(signature.p_credential, `${path}.signature.p_credential`)
  const sp = `${path}.signature.p_credential`
  return {
    schemaId: nonEmptyString(json.schema_id, `${path}.schema_id`),
    credDefId: nonEmptyString(json.cred_def_id, `${path}.cred_def_id`),
    revRegId,
    values,
    signature: {
      m2: decimal(p.m_2, `${sp}.m_2`),
      a: positiveDecimal(p.a, `${sp}.a`),
      e: positiveDecimal(p.e, `${sp}.e`),
      v: positiveDecimal(p.v, `${sp}.v`),
    },
    revocation,
  }
}

const PREDICATE_TYPES: Record<string, PredicateType> = { '>=': 'GE', '<=': 'LE', '>': 'GT', '<': 'LT' }

export interface RequestedAttribute {
  readonly name?: string
  readonly names?: readonly string[]
  readonly restrictions?: Query
  readonly hasNonRevoked: boolean
}

export interface RequestedPredicate {
  readonly name: string
  readonly pType: PredicateType
  readonly pValue: number
  readonly restrictions?: Query
}

export interface PresentationRequest {
  readonly nonce: bigint
  readonly version: '1.0' | '2.0'
  readonly attributes: ReadonlyMap<string, RequestedAttribute>
  readonly predicates: ReadonlyMap<string, RequestedPredicate>
}

function parseOptionalRestrictions(value: unknown, path: string): Query | undefined {
  return isAbsent(value) ? undefined : parseRestrictions(value, path)
}

export function parsePresentationRequest(value: unknown, path = 'presentationRequest'): PresentationRequest {
  const json = object(value, path)
  const nonceText = string(json.nonce, `${path}.nonce`)
  if (!/^[0-9]+$/.test(nonceText) || nonceText.length > 100)
    throw malformed(`${path}.nonce`, 'must be a decimal string')
  string(json.name, `${path}.name`)
  string(json.version, `${path}.version`)
  let version: '1.0' | '2.0' = '1.0'
  if (!isAbsent(json.ver)) {
    if (json.ver !== '1.0' && json.ver !== '2.0') throw malformed(`${path}.ver`, 'must be "1.0" or "2.0"')
    version = json.ver
  }
  const attributes = new Map<string, RequestedAttribute>()
  for (const [referent, entry] of isAbsent(json.requested_attributes)
    ? []
    : entries(json.requested_attributes, `${path}.requested_attributes`)) {
    const p = `${path}.requested_attributes.${referent}`
    safeKey(referent, p)
    const attr = object(entry, p)
    const name = isAbsent(attr.name) ? undefined : string(attr.name, `${p}.name`)
    let names: string[] | undefined
    if (!isAbsent(attr.names)) {
      if (!Array.isArray(attr.names)) throw malformed(`${p}.names`, 'must be an array')
      names = attr.names.map((n, i) => safeKey(nonEmptyString(n, `${p}.names[${i}]`), `${p}.names[${i}]`))
    }
    const hasName = name !== undefined && name.length > 0
    const hasNames = names !== undefined && names.length > 0
    if (hasName === hasNames) throw malformed(p, 'must have exactly one of a non-empty "name" or "names"')
    attributes.set(referent, {
      ...(hasName ? { name } : { names }),
      restrictions: parseOptionalRestrictions(attr.restrictions, `${p}.restrictions`),
      hasNonRevoked: !isAbsent(attr.non_revoked),
    })
  }
  const predicates = new Map<string, RequestedPredicate>()
  for (const [referent, entry] of isAbsent(json.requested_predicates)
    ? []
    : entries(json.requested_predicates, `${path}.requested_predicates`)) {
    const p = `${path}.requested_predicates.${referent}`
    safeKey(referent, p)
    const pred = object(entry, p)
    const pType = PREDICATE_TYPES[string(pred.p_type, `${p}.p_type`)]
    if (!pType) throw malformed(`${p}.p_type`, 'must be one of ">=", "<=", ">", "<"')
    predicates.set(referent, {
      name: nonEmptyString(pred.name, `${p}.name`),
      pType,
      pValue: i32(pred.p_value, `${p}.p_value`),
      restrictions: parseOptionalRestrictions(pred.restrictions, `${p}.restrictions`),
    })
  }
  if (attributes.size === 0 && predicates.size === 0) {
    throw malformed(path, 'requests neither attributes nor predicates')
  }
  return { nonce: BigInt(nonceText), version, attributes, predicates }
}

const CL_PREDICATE_TYPES = new Set(['GE', 'LE', 'GT', 'LT'])

function numberedMap(value: unknown, path: string, withDelta: boolean): { values: bigint[]; delta?: bigint } {
  const json = object(value, path)
  const expected = withDelta ? ['0', '1', '2', '3', 'DELTA'] : ['0', '1', '2', '3']
  const keys = Object.keys(json).sort()
  if (keys.length !== expected.length || !expected.every((k) => k in json)) {
    throw malformed(path, `must have exactly the keys ${expected.join(', ')}`)
  }
  return {
    values: ['0', '1', '2', '3'].map((k) => decimal(json[k], `${path}.${k}`)),
    delta: withDelta ? decimal(json.DELTA, `${path}.DELTA`) : undefined,
  }
}

function decimalMap(value: unknown, path: string): Map<string, bigint> {
  const map = new Map<string, bigint>()
  for (const [key, entry] of entries(value, path)) map.set(key, decimal(entry, `${path}.${key}`))
  return map
}

export interface SubProof extends PrimaryProof {
  /** The parsed `non_revoc_proof`, absent when the sub proof has none. */
  readonly nonRevocation?: NonRevocationProof
}

/** A sub proof: its primary proof and, when present, its non-revocation proof (both shapes checked here). */
export function parsePrimaryProof(value: unknown, path: string): SubProof {
  const sub = object(value, path)
  const nonRevocation = isAbsent(sub.non_revoc_proof)
    ? undefined
    : readingRevocation(`${path}.non_revoc_proof`, () =>
        readNonRevocationProof(sub.non_revoc_proof, `${path}.non_revoc_proof`),
      )
  const primary = object(sub.primary_proof, `${path}.primary_proof`)
  const p = `${path}.primary_proof.eq_proof`
  const eq = object(primary.eq_proof, p)
  const m = decimalMap(eq.m, `${p}.m`)
  // Proofs from before the link secret joined `m` carry it as m1 (anoncreds-clsignatures reads both).
  if (!isAbsent(eq.m1) && !m.has('master_secret')) m.set('master_secret', decimal(eq.m1, `${p}.m1`))
  const eqProof: EqProof = {
    revealedAttrs: decimalMap(eq.revealed_attrs, `${p}.revealed_attrs`),
    aPrime: decimal(eq.a_prime, `${p}.a_prime`),
    e: decimal(eq.e, `${p}.e`),
    v: decimal(eq.v, `${p}.v`),
    m,
    m2: decimal(eq.m2, `${p}.m2`),
  }
  const geJson = primary.ge_proofs
  if (!Array.isArray(geJson)) throw malformed(`${path}.primary_proof.ge_proofs`, 'must be an array')
  const geProofs = geJson.map((entry, i): GeProof => {
    const g = `${path}.primary_proof.ge_proofs[${i}]`
    const ge = object(entry, g)
    const predicateJson = object(ge.predicate, `${g}.predicate`)
    if (!CL_PREDICATE_TYPES.has(predicateJson.p_type as string))
      throw malformed(`${g}.predicate.p_type`, 'must be GE, LE, GT or LT')
    const predicate: ClPredicate = {
      attrName: nonEmptyString(predicateJson.attr_name, `${g}.predicate.attr_name`),
      pType: predicateJson.p_type as PredicateType,
      value: i32(predicateJson.value, `${g}.predicate.value`),
    }
    const r = numberedMap(ge.r, `${g}.r`, true)
    const t = numberedMap(ge.t, `${g}.t`, true)
    return {
      u: numberedMap(ge.u, `${g}.u`, false).values,
      r: r.values,
      rDelta: r.delta as bigint,
      mj: decimal(ge.mj, `${g}.mj`),
      alpha: decimal(ge.alpha, `${g}.alpha`),
      t: t.values,
      tDelta: t.delta as bigint,
      predicate,
    }
  })
  return nonRevocation ? { eqProof, geProofs, nonRevocation } : { eqProof, geProofs }
}

export function parseByteList(value: unknown, path: string): Uint8Array[] {
  if (!Array.isArray(value)) throw malformed(path, 'must be an array')
  return value.map((entry, i) => {
    if (!Array.isArray(entry) || entry.length > 1024) throw malformed(`${path}[${i}]`, 'must be an array of bytes')
    for (const byte of entry) {
      if (typeof byte !== 'number' || !Number.isInteger(byte) || byte < 0 || byte > 255) {
        throw malformed(`${path}[${i}]`, 'must be an array of bytes')
      }
    }
    return Uint8Array.from(entry as number[])
  })
}

export { isAbsent }
