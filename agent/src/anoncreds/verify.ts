/**
 * verifyPresentation: the verifier's side of an AnonCreds v1 presentation, as anoncreds-rs
 * `verify_presentation`: every requested referent answered, revealed values equal to the proof's and correctly
 * encoded, restrictions met by the credentials' identifiers, each sub proof showing exactly what the request asks
 * (predicates included: their bound and type come from the request, not from the proof), non-revocation proven
 * at a status list inside the requested interval, and the CL proof valid for the request's nonce.
 */
import { encodeCredentialAttribute } from './encoding'
import { AnonCredsError, malformed } from './errors'
import {
  type ClPredicate,
  dedupePredicates,
  type NonRevocationToVerify,
  type SubProofToVerify,
  verifyProof,
} from './presentation/cl-proof'
import {
  canonicalAttributeName,
  type CredentialDefinition,
  decimal,
  entries,
  index,
  isAbsent,
  nonEmptyString,
  object,
  own,
  parseByteList,
  parseCredentialDefinition,
  parsePresentationRequest,
  parsePrimaryProof,
  parseSchema,
  type PresentationRequest,
  type Schema,
  string,
} from './presentation/parse'
import { matchesQuery, type Query, queryTags } from './presentation/restrictions'
import { readRevocationPublicKey } from './revocation/keys'
import type { NonRevocationProof } from './revocation/non-revocation-proof'
import { readingRevocation, revocationRegistryDefinitionOf, statusListOf } from './revocation/registry'

export interface VerifyPresentationOptions {
  presentation: unknown
  presentationRequest: unknown
  schemas: Readonly<Record<string, unknown>>
  credentialDefinitions: Readonly<Record<string, unknown>>
  /** Revocation registry definitions by id (needed for presentations with non-revocation proofs). */
  revocationRegistryDefinitions?: Readonly<Record<string, unknown>>
  /** The status lists the holder proved against, found by `revRegDefId` and `timestamp`. */
  revocationStatusLists?: readonly unknown[]
  /** Per registry, a requested `from` mapped to the earlier one the verifier accepts (anoncreds-rs override). */
  nonRevokedIntervalOverrides?: Readonly<Record<string, Readonly<Record<string, number>>>>
}

/**
 * `proofFails` marks a presentation that answers the request but whose proof does not hold (the challenge, c_list
 * or arithmetic): for a non-revocation proof that is what a revoked credential gives, as does tampering, since the
 * verifier cannot tell which sub proof failed.
 */
export type PresentationCheck = { valid: true } | { valid: false; reason: string; proofFails?: true }

/**
 * True when the presentation answers the request. A presentation that is well formed but wrong (tampered,
 * another nonce, restrictions not met, revoked, a registry or status list the verifier was not given) gives false;
 * input without the anoncreds-rs shape throws an AnonCredsError of kind `malformed`.
 */
export function verifyPresentation(options: VerifyPresentationOptions): boolean {
  return checkPresentation(options).valid
}

/** verifyPresentation with the reason a presentation was rejected. */
export function checkPresentation(options: VerifyPresentationOptions): PresentationCheck {
  try {
    return check(options)
  } catch (error) {
    // A failed check is an answer (false); only input that is not a presentation at all is an error.
    if (error instanceof AnonCredsError && error.kind !== 'invalid') throw error
    if (error instanceof AnonCredsError) return { valid: false, reason: error.message }
    if (error instanceof Rejection) return { valid: false, reason: error.message }
    // Arithmetic on hostile numbers (a non-invertible value, say) means the proof does not hold.
    return { valid: false, reason: 'the proof values are not consistent', proofFails: true }
  }
}

class Rejection extends Error {}

function known<T>(map: ReadonlyMap<string, T>, id: string): T {
  return map.get(id) ?? reject(`${id} was not given`)
}

function reject(reason: string): never {
  throw new Rejection(reason)
}

interface RevealedInfo {
  subProofIndex: number
  raw: string
  encoded: string
}

interface RequestedProof {
  revealed: Map<string, RevealedInfo>
  groups: Map<string, { subProofIndex: number; values: Map<string, { raw: string; encoded: string }> }>
  selfAttested: Set<string>
  unrevealed: Map<string, number>
  predicates: Map<string, number>
}

function parseRequestedProof(value: unknown, path: string): RequestedProof {
  const json = object(value, path)
  const revealedInfo = (entry: unknown, p: string) => {
    const info = object(entry, p)
    return { raw: string(info.raw, `${p}.raw`), encoded: string(info.encoded, `${p}.encoded`) }
  }
  const revealed = new Map<string, RevealedInfo>()
  for (const [referent, entry] of entries(json.revealed_attrs, `${path}.revealed_attrs`)) {
    const p = `${path}.revealed_attrs.${referent}`
    revealed.set(referent, {
      subProofIndex: index(object(entry, p).sub_proof_index, `${p}.sub_proof_index`),
      ...revealedInfo(entry, p),
    })
  }
  const groups: RequestedProof['groups'] = new Map()
  for (const [referent, entry] of isAbsent(json.revealed_attr_groups)
    ? []
    : entries(json.revealed_attr_groups, `${path}.revealed_attr_groups`)) {
    const p = `${path}.revealed_attr_groups.${referent}`
    const group = object(entry, p)
    const values = new Map<string, { raw: string; encoded: string }>()
    for (const [name, v] of entries(group.values, `${p}.values`))
      values.set(name, revealedInfo(v, `${p}.values.${name}`))
    groups.set(referent, { subProofIndex: index(group.sub_proof_index, `${p}.sub_proof_index`), values })
  }
  const selfAttested = new Set<string>()
  for (const [referent, v] of isAbsent(json.self_attested_attrs)
    ? []
    : entries(json.self_attested_attrs, `${path}.self_attested_attrs`)) {
    string(v, `${path}.self_attested_attrs.${referent}`)
    selfAttested.add(referent)
  }
  const referents = (field: string) => {
    const map = new Map<string, number>()
    for (const [referent, entry] of isAbsent(json[field]) ? [] : entries(json[field], `${path}.${field}`)) {
      const p = `${path}.${field}.${referent}`
      map.set(referent, index(object(entry, p).sub_proof_index, `${p}.sub_proof_index`))
    }
    return map
  }
  return {
    revealed,
    groups,
    selfAttested,
    unrevealed: referents('unrevealed_attrs'),
    predicates: referents('predicates'),
  }
}

interface Identifier {
  schemaId: string
  credDefId: string
  revRegId: string | null
  timestamp: number | null
}

function parseIdentifiers(value: unknown, path: string): Identifier[] {
  if (!Array.isArray(value)) throw malformed(path, 'must be an array')
  return value.map((entry, i) => {
    const id = object(entry, `${path}[${i}]`)
    return {
      schemaId: nonEmptyString(id.schema_id, `${path}[${i}].schema_id`),
      credDefId: nonEmptyString(id.cred_def_id, `${path}[${i}].cred_def_id`),
      revRegId: isAbsent(id.rev_reg_id) ? null : nonEmptyString(id.rev_reg_id, `${path}[${i}].rev_reg_id`),
      timestamp: isAbsent(id.timestamp) ? null : index(id.timestamp, `${path}[${i}].timestamp`),
    }
  })
}

/** Integers that Rust reads as i32 compare by value ("007" is "7"), anything else as text. */
function normalizeEncoded(encoded: string): string {
  if (/^[+-]?[0-9]+$/.test(encoded)) {
    const value = Number(encoded)
    if (value >= -(2 ** 31) && value <= 2 ** 31 - 1) return String(value === 0 ? 0 : value)
  }
  return encoded
}

function check(options: VerifyPresentationOptions): PresentationCheck {
  const input = object(options, 'options')
  const request = parsePresentationRequest(input.presentationRequest)
  const presentation = object(input.presentation, 'presentation')
  const proofJson = object(presentation.proof, 'presentation.proof')
  if (!Array.isArray(proofJson.proofs)) throw malformed('presentation.proof.proofs', 'must be an array')
  const proofs = proofJson.proofs.map((p: unknown, i: number) =>
    parsePrimaryProof(p, `presentation.proof.proofs[${i}]`),
  )
  const aggregated = object(proofJson.aggregated_proof, 'presentation.proof.aggregated_proof')
  const cHash = decimal(aggregated.c_hash, 'presentation.proof.aggregated_proof.c_hash')
  const cList = parseByteList(aggregated.c_list, 'presentation.proof.aggregated_proof.c_list')
  const requestedProof = parseRequestedProof(presentation.requested_proof, 'presentation.requested_proof')
  const identifiers = parseIdentifiers(presentation.identifiers, 'presentation.identifiers')
  const schemasJson = object(input.schemas, 'schemas')
  const credDefsJson = object(input.credentialDefinitions, 'credentialDefinitions')

  if (proofs.length !== identifiers.length) reject('the number of proofs differs from the number of identifiers')
  const identifierAt = (subProofIndex: number): Identifier =>
    identifiers[subProofIndex] ?? reject(`no identifier for sub proof index ${subProofIndex}`)

  // Every requested referent answered exactly once.
  const answered = new Map<string, string>()
  const answer = (referent: string, how: string) => {
    if (answered.has(referent)) reject(`attribute "${referent}" is answered twice`)
    answered.set(referent, how)
  }
  requestedProof.revealed.forEach((_, r) => answer(r, 'revealed'))
  requestedProof.groups.forEach((_, r) => answer(r, 'group'))
  requestedProof.unrevealed.forEach((_, r) => answer(r, 'unrevealed'))
  requestedProof.selfAttested.forEach((r) => answer(r, 'self-attested'))
  if (answered.size !== request.attributes.size || [...request.attributes.keys()].some((r) => !answered.has(r))) {
    reject('the requested attributes and the presented ones differ')
  }
  if (
    requestedProof.predicates.size !== request.predicates.size ||
    [...request.predicates.keys()].some((r) => !requestedProof.predicates.has(r))
  ) {
    reject('the requested predicates and the presented ones differ')
  }

  // Schemas and credential definitions of the identifiers, read once.
  const schemas = new Map<string, Schema>()
  const credDefs = new Map<string, CredentialDefinition>()
  for (const { schemaId, credDefId } of identifiers) {
    if (!schemas.has(schemaId)) {
      const json = own(schemasJson, schemaId) ?? reject(`schema ${schemaId} was not given`)
      schemas.set(schemaId, parseSchema(json, `schemas.${schemaId}`))
    }
    if (!credDefs.has(credDefId)) {
      const json = own(credDefsJson, credDefId) ?? reject(`credential definition ${credDefId} was not given`)
      credDefs.set(credDefId, parseCredentialDefinition(json, `credentialDefinitions.${credDefId}`))
    }
    // The key proves the credential, not its schema: a prover could name another schema with the same attribute
    // names to meet a schema restriction. A definition names its schema (legacy ledger ones by sequence number,
    // which cannot be compared here).
    const definedFor = known(credDefs, credDefId).schemaId
    if (!/^[0-9]+$/.test(definedFor) && definedFor !== schemaId) {
      reject(`credential definition ${credDefId} is not for schema ${schemaId}`)
    }
  }

  // What each sub proof has to show, from the request.
  const subRequests = identifiers.map(() => ({ revealed: new Map<string, string>(), predicates: [] as ClPredicate[] }))
  const showRevealed = (subProofIndex: number, name: string, encoded: string, raw: string) => {
    identifierAt(subProofIndex)
    const canonical = canonicalAttributeName(name)
    const normalized = normalizeEncoded(encoded)
    if (encodeCredentialAttribute(raw) !== normalized)
      reject(`the revealed value of "${name}" does not match its encoding`)
    const previous = subRequests[subProofIndex].revealed.get(canonical)
    if (previous !== undefined && previous !== normalized) reject(`attribute "${name}" is revealed with two values`)
    subRequests[subProofIndex].revealed.set(canonical, normalized)
  }
  for (const [referent, info] of requestedProof.revealed) {
    const name =
      request.attributes.get(referent)?.name ??
      reject(`attribute "${referent}" is requested as a group, not a single name`)
    showRevealed(info.subProofIndex, name, info.encoded, info.raw)
  }
  for (const [referent, group] of requestedProof.groups) {
    const names =
      request.attributes.get(referent)?.names ?? reject(`attribute "${referent}" is not requested as a group`)
    if (group.values.size !== names.length) reject(`attribute group "${referent}" does not match the request`)
    for (const name of names) {
      const value = group.values.get(name) ?? reject(`attribute group "${referent}" lacks "${name}"`)
      showRevealed(group.subProofIndex, name, value.encoded, value.raw)
    }
  }
  for (const [referent, subProofIndex] of requestedProof.unrevealed) {
    const attribute = request.attributes.get(referent) ?? reject(`unknown referent ${referent}`)
    const schema = known(schemas, identifierAt(subProofIndex).schemaId)
    for (const name of attribute.name !== undefined ? [attribute.name] : (attribute.names ?? [])) {
      if (!schema.attrNames.includes(canonicalAttributeName(name)))
        reject(`the credential for "${referent}" has no attribute "${name}"`)
    }
  }
  for (const [referent, subProofIndex] of requestedProof.predicates) {
    identifierAt(subProofIndex)
    const predicate = request.predicates.get(referent) ?? reject(`unknown referent ${referent}`)
    subRequests[subProofIndex].predicates.push({
      attrName: canonicalAttributeName(predicate.name),
      pType: predicate.pType,
      value: predicate.pValue,
    })
  }

  checkRestrictions(request, requestedProof, identifiers, schemas, credDefs)
  checkNonRevokedIntervals(
    input.presentationRequest,
    requestedProof,
    identifiers,
    credDefs,
    input.nonRevokedIntervalOverrides,
  )
  const nonRevocation = identifiers.map((identifier, i) =>
    nonRevocationToVerify(identifier, proofs[i].nonRevocation, known(credDefs, identifier.credDefId), input, i),
  )

  const subProofs: SubProofToVerify[] = identifiers.map((identifier, i) => {
    const proof = proofs[i]
    // The revealed values of the requested proof must be the ones the CL proof signs.
    for (const [name, encoded] of subRequests[i].revealed) {
      const proven = proof.eqProof.revealedAttrs.get(name)
      if (proven === undefined || proven.toString() !== encoded)
        reject(`the revealed value of "${name}" differs from the proof's`)
    }
    return {
      publicKey: known(credDefs, identifier.credDefId).publicKey,
      schemaAttrs: known(schemas, identifier.schemaId).attrNames,
      request: {
        revealed: [...subRequests[i].revealed.keys()],
        predicates: dedupePredicates(subRequests[i].predicates),
      },
      proof,
      nonRevocation: nonRevocation[i],
    }
  })
  const result = verifyProof(subProofs, cHash, cList, request.nonce)
  return result.valid ? result : { ...result, proofFails: true }
}

function checkRestrictions(
  request: PresentationRequest,
  requestedProof: RequestedProof,
  identifiers: readonly Identifier[],
  schemas: ReadonlyMap<string, Schema>,
  credDefs: ReadonlyMap<string, CredentialDefinition>,
): void {
  const queries: Query[] = []
  for (const a of request.attributes.values()) if (a.restrictions) queries.push(a.restrictions)
  for (const p of request.predicates.values()) if (p.restrictions) queries.push(p.restrictions)
  const tags = new Set(queries.flatMap(queryTags))
  if (tags.has('issuer_id') && tags.has('issuer_did')) reject('the request mixes issuer_id and issuer_did restrictions')
  if (tags.has('schema_issuer_id') && tags.has('schema_issuer_did'))
    reject('the request mixes schema_issuer_id and schema_issuer_did restrictions')

  const filterFor = (subProofIndex: number) => {
    const identifier = identifiers[subProofIndex]
    const schema = known(schemas, identifier.schemaId)
    const credDef = known(credDefs, identifier.credDefId)
    return {
      schemaId: identifier.schemaId,
      schemaIssuerId: schema.issuerId,
      schemaName: schema.name,
      schemaVersion: schema.version,
      issuerId: credDef.issuerId,
      credDefId: identifier.credDefId,
    }
  }
  const subProofOf = (referent: string): number | undefined =>
    requestedProof.revealed.get(referent)?.subProofIndex ??
    requestedProof.groups.get(referent)?.subProofIndex ??
    requestedProof.unrevealed.get(referent)

  for (const [referent, attribute] of request.attributes) {
    const restrictions = attribute.restrictions
    if (!restrictions) continue
    const unrestricted = (restrictions.op === 'and' || restrictions.op === 'or') && restrictions.items.length === 0
    if (unrestricted && requestedProof.selfAttested.has(referent)) continue
    const subProofIndex = subProofOf(referent)
    if (subProofIndex === undefined) reject(`attribute "${referent}" has restrictions and must come from a credential`)
    const values = new Map<string, string | undefined>()
    if (attribute.name !== undefined) values.set(attribute.name, requestedProof.revealed.get(referent)?.raw)
    for (const name of attribute.names ?? [])
      values.set(name, requestedProof.groups.get(referent)?.values.get(name)?.raw)
    if (!matchesQuery(restrictions, filterFor(subProofIndex), values))
      reject(`attribute "${referent}" does not meet its restrictions`)
  }
  for (const [referent, predicate] of request.predicates) {
    if (!predicate.restrictions) continue
    const subProofIndex = requestedProof.predicates.get(referent) ?? reject(`unknown referent ${referent}`)
    const values = new Map<string, string | undefined>([[predicate.name, undefined]])
    for (const [r, info] of requestedProof.revealed) {
      const name = request.attributes.get(r)?.name
      if (info.subProofIndex === subProofIndex && name !== undefined) values.set(name, info.raw)
    }
    for (const group of requestedProof.groups.values()) {
      if (group.subProofIndex === subProofIndex) for (const [name, v] of group.values) values.set(name, v.raw)
    }
    if (!matchesQuery(predicate.restrictions, filterFor(subProofIndex), values))
      reject(`predicate "${referent}" does not meet its restrictions`)
  }
}

interface Interval {
  from?: number
  to?: number
}

function parseInterval(value: unknown, path: string): Interval | undefined {
  if (isAbsent(value)) return undefined
  const json = object(value, path)
  return {
    from: isAbsent(json.from) ? undefined : index(json.from, `${path}.from`),
    to: isAbsent(json.to) ? undefined : index(json.to, `${path}.to`),
  }
}

/** The narrower of two intervals (anoncreds-rs NonRevokedInterval::compare_and_set). */
function narrower(a: Interval, b: Interval): Interval {
  return {
    from: a.from === undefined ? b.from : b.from === undefined ? a.from : Math.max(a.from, b.from),
    to: a.to === undefined ? b.to : b.to === undefined ? a.to : Math.min(a.to, b.to),
  }
}

/**
 * anoncreds-rs' check_non_revoked_interval, made strict: the narrowest interval a credential's referents ask for
 * (their own, else the request's) must contain the identifier's timestamp, and when the credential definition
 * supports revocation such an interval needs a registry and a timestamp (anoncreds-rs lets a prover that names no
 * registry skip the check under a request-wide interval, which would let a revoked credential pass). A verifier may
 * accept an earlier `from` per registry (`nonRevokedIntervalOverrides`, as anoncreds-rs' nonrevoke_interval_override).
 */
function checkNonRevokedIntervals(
  requestJson: unknown,
  requestedProof: RequestedProof,
  identifiers: readonly Identifier[],
  credDefs: ReadonlyMap<string, CredentialDefinition>,
  overrides: unknown,
): void {
  const json = object(requestJson, 'presentationRequest')
  const global = parseInterval(json.non_revoked, 'presentationRequest.non_revoked')
  const local = identifiers.map((): Interval | undefined => undefined)
  const note = (subProofIndex: number, interval: Interval | undefined) => {
    if (!interval || subProofIndex >= local.length) return
    local[subProofIndex] = local[subProofIndex] ? narrower(local[subProofIndex], interval) : interval
  }
  const attrs = isAbsent(json.requested_attributes) ? {} : object(json.requested_attributes, 'requested_attributes')
  const preds = isAbsent(json.requested_predicates) ? {} : object(json.requested_predicates, 'requested_predicates')
  const attributeInterval = (referent: string) =>
    parseInterval(
      object(own(attrs, referent), `requested_attributes.${referent}`).non_revoked,
      `requested_attributes.${referent}.non_revoked`,
    )
  requestedProof.revealed.forEach((info, referent) => note(info.subProofIndex, attributeInterval(referent)))
  requestedProof.groups.forEach((group, referent) => note(group.subProofIndex, attributeInterval(referent)))
  requestedProof.unrevealed.forEach((subProofIndex, referent) => note(subProofIndex, attributeInterval(referent)))
  requestedProof.predicates.forEach((subProofIndex, referent) =>
    note(
      subProofIndex,
      parseInterval(
        object(own(preds, referent), `requested_predicates.${referent}`).non_revoked,
        `requested_predicates.${referent}.non_revoked`,
      ),
    ),
  )
  const overrideMap = isAbsent(overrides) ? {} : object(overrides, 'nonRevokedIntervalOverrides')
  identifiers.forEach((identifier, i) => {
    if (known(credDefs, identifier.credDefId).revocation === null) return
    const interval = local[i] ?? global
    if (!interval) return
    if (identifier.revRegId === null)
      reject(`credential ${i} must be proven non-revoked and names no revocation registry`)
    let from = interval.from
    const registryOverrides = own(overrideMap, identifier.revRegId)
    if (from !== undefined && !isAbsent(registryOverrides)) {
      const accepted = own(
        object(registryOverrides, `nonRevokedIntervalOverrides.${identifier.revRegId}`),
        String(from),
      )
      if (!isAbsent(accepted)) from = index(accepted, `nonRevokedIntervalOverrides.${identifier.revRegId}.${from}`)
    }
    if (identifier.timestamp === null) reject(`credential ${i} has no timestamp for its non-revocation proof`)
    if (
      (from !== undefined && identifier.timestamp < from) ||
      (interval.to !== undefined && identifier.timestamp > interval.to)
    )
      reject(`credential ${i} was proven non-revoked at ${identifier.timestamp}, outside the requested interval`)
  })
}

/**
 * The registry state a credential's non-revocation proof is checked against: its definition by `rev_reg_id` and the
 * status list of that registry with the identifier's timestamp (anoncreds-rs looks them up the same way). A sub proof
 * with a registry but no timestamp proves nothing about revocation (allowed when no interval asks for it, as in
 * anoncreds-rs); one with both must carry its non-revocation proof (anoncreds-rs would skip a missing one).
 */
function nonRevocationToVerify(
  identifier: Identifier,
  proof: NonRevocationProof | undefined,
  credDef: CredentialDefinition,
  input: Record<string, unknown>,
  i: number,
): NonRevocationToVerify | undefined {
  const { revRegId, timestamp } = identifier
  if (revRegId !== null && credDef.revocation === null)
    reject(`credential definition ${identifier.credDefId} does not support revocation`)
  if (revRegId === null || timestamp === null) {
    if (proof) reject(`sub proof ${i} has a non-revocation proof without a revocation registry and timestamp`)
    return undefined
  }
  if (!proof) reject(`sub proof ${i} has no non-revocation proof`)
  const definitions = isAbsent(input.revocationRegistryDefinitions)
    ? {}
    : object(input.revocationRegistryDefinitions, 'revocationRegistryDefinitions')
  const definition = revocationRegistryDefinitionOf(
    own(definitions, revRegId) ?? reject(`revocation registry ${revRegId} was not given`),
    `revocationRegistryDefinitions.${revRegId}`,
  )
  if (definition.credDefId !== identifier.credDefId)
    reject(`revocation registry ${revRegId} is not for ${identifier.credDefId}`)
  const lists = isAbsent(input.revocationStatusLists) ? [] : input.revocationStatusLists
  if (!Array.isArray(lists)) throw malformed('revocationStatusLists', 'must be an array')
  const list = lists
    .map((entry, k) => statusListOf(entry, `revocationStatusLists[${k}]`))
    .find((entry) => entry.revRegDefId === revRegId && entry.timestamp === timestamp)
  if (!list) reject(`no status list of ${revRegId} at ${timestamp} was given`)
  if (list.accumulator === null) reject(`the status list of ${revRegId} has no accumulator`)
  const accumulator = list.accumulator
  return readingRevocation(`credentialDefinitions.${identifier.credDefId}.value.revocation`, () => ({
    key: readRevocationPublicKey(credDef.revocation, `credentialDefinitions.${identifier.credDefId}.value.revocation`),
    accumulator,
    accumulatorKey: definition.accumulatorKey,
    proof,
  }))
}
