/**
 * createPresentation: the holder's side of an AnonCreds v1 presentation, as anoncreds-rs
 * `create_presentation` (same inputs as its FFI: credential entries, which referent each proves and how,
 * self-attested values, the link secret and the schemas and credential definitions by id).
 */
import { AnonCredsError, invalid, malformed } from './errors'
import { readRevocationPublicKey } from './revocation/keys'
import { initNonRevocationProof, type NonRevocationInit } from './revocation/non-revocation-proof'
import { readingRevocation } from './revocation/registry'
import { readRevocationState } from './revocation/revocation-state'
import { toDecimal } from './math'
import {
  type ClPredicate,
  type ClProof,
  dedupePredicates,
  LINK_SECRET_ATTRIBUTE,
  ProofBuilder,
  ProofBuildError,
  type SubProofRequest,
} from './presentation/cl-proof'
import {
  canonicalAttributeName,
  type Credential,
  type CredentialDefinition,
  decimal,
  index,
  isAbsent,
  nonEmptyString,
  object,
  own,
  parseCredential,
  parseCredentialDefinition,
  parsePresentationRequest,
  parseSchema,
  type PresentationRequest,
  type Schema,
  string,
} from './presentation/parse'
import type {
  GeProofJson,
  IdentifierJson,
  PresentationJson,
  RequestedProofJson,
  SubProofJson,
} from './presentation/types'

export interface PresentationCredentialEntry {
  credential: unknown
  /** The status list's timestamp the non-revocation proof is for (defaults to the revocation state's). */
  timestamp?: number
  /** The credential's revocation state (createOrUpdateRevocationState): adds a non-revocation proof. */
  revocationState?: unknown
}

export interface PresentationCredentialProve {
  entryIndex: number
  referent: string
  isPredicate: boolean
  reveal: boolean
}

export interface CreatePresentationOptions {
  presentationRequest: unknown
  credentials: readonly PresentationCredentialEntry[]
  credentialsProve: readonly PresentationCredentialProve[]
  selfAttest?: Readonly<Record<string, string>>
  linkSecret: string
  schemas: Readonly<Record<string, unknown>>
  credentialDefinitions: Readonly<Record<string, unknown>>
}

interface EntryPlan {
  credential: Credential
  timestamp: number | null
  revocationState: RevocationState | null
  attributes: { referent: string; reveal: boolean }[]
  predicates: string[]
}

type RevocationState = ReturnType<typeof readRevocationState>

/**
 * Builds the presentation JSON. Throws AnonCredsError: `malformed` for inputs without the anoncreds-rs shape,
 * `invalid` when the credentials cannot prove the request (missing attribute, unmet predicate, schema or
 * credential definition not given, a revocation state for a credential that is not revocable). A credential with
 * a revocation state gets a non-revocation proof against the state's accumulator (a revoked credential still gets
 * one, as with anoncreds-rs: the verifier answers false).
 */
export function createPresentation(options: CreatePresentationOptions): PresentationJson {
  try {
    return buildPresentation(options)
  } catch (error) {
    if (error instanceof AnonCredsError) throw error
    if (error instanceof ProofBuildError) throw invalid(error.message)
    throw invalid('the presentation could not be built', undefined)
  }
}

function buildPresentation(options: CreatePresentationOptions): PresentationJson {
  const input = object(options, 'options')
  const request = parsePresentationRequest(input.presentationRequest)
  const linkSecret = decimal(input.linkSecret, 'linkSecret')
  const selfAttest = new Map<string, string>()
  if (!isAbsent(input.selfAttest)) {
    for (const [referent, value] of Object.entries(object(input.selfAttest, 'selfAttest'))) {
      if (referent === '__proto__') throw malformed('selfAttest', 'must not name "__proto__"')
      selfAttest.set(referent, string(value, `selfAttest.${referent}`))
    }
  }
  if (!Array.isArray(input.credentials)) throw malformed('credentials', 'must be an array')
  if (!Array.isArray(input.credentialsProve)) throw malformed('credentialsProve', 'must be an array')
  const plans: EntryPlan[] = input.credentials.map((entry: unknown, i: number) => {
    const path = `credentials[${i}]`
    const e = object(entry, path)
    const credential = parseCredential(e.credential, `${path}.credential`)
    let timestamp = isAbsent(e.timestamp) ? null : index(e.timestamp, `${path}.timestamp`)
    const revocationState = isAbsent(e.revocationState)
      ? null
      : readRevocationState(e.revocationState, `${path}.revocationState`)
    if (revocationState) {
      if (!credential.revocation) throw invalid('the credential is not revocable', `${path}.revocationState`)
      if (timestamp !== null && timestamp !== revocationState.timestamp)
        throw invalid("the timestamp differs from the revocation state's", `${path}.timestamp`)
      timestamp = revocationState.timestamp
    } else if (credential.revocation && timestamp !== null) {
      throw invalid('a timestamp for a revocable credential needs its revocation state', `${path}.revocationState`)
    }
    return { credential, timestamp, revocationState, attributes: [], predicates: [] }
  })
  const usedReferents = new Set<string>()
  input.credentialsProve.forEach((entry: unknown, i: number) => {
    const path = `credentialsProve[${i}]`
    const prove = object(entry, path)
    const entryIndex = index(prove.entryIndex, `${path}.entryIndex`)
    const plan = plans[entryIndex]
    if (!plan) throw malformed(`${path}.entryIndex`, 'does not name a credential entry')
    const referent = nonEmptyString(prove.referent, `${path}.referent`)
    const isPredicate = prove.isPredicate === true
    const key = `${isPredicate ? 'predicate' : 'attribute'}:${referent}`
    if (usedReferents.has(key)) throw malformed(`${path}.referent`, `"${referent}" is proven twice`)
    usedReferents.add(key)
    if (isPredicate) {
      if (!request.predicates.has(referent))
        throw invalid(`predicate "${referent}" is not in the presentation request`, path)
      plan.predicates.push(referent)
    } else {
      if (!request.attributes.has(referent))
        throw invalid(`attribute "${referent}" is not in the presentation request`, path)
      plan.attributes.push({ referent, reveal: prove.reveal === true })
    }
  })
  if (plans.every((plan) => plan.attributes.length === 0 && plan.predicates.length === 0) && selfAttest.size === 0) {
    throw invalid('no credential proves anything and nothing is self-attested')
  }
  const schemas = object(input.schemas, 'schemas')
  const credentialDefinitions = object(input.credentialDefinitions, 'credentialDefinitions')

  const requestedProof: RequestedProofJson = {
    revealed_attrs: {},
    revealed_attr_groups: {},
    self_attested_attrs: Object.fromEntries(selfAttest),
    unrevealed_attrs: {},
    predicates: {},
  }
  const identifiers: IdentifierJson[] = []
  const builder = new ProofBuilder()
  for (const plan of plans) {
    if (plan.attributes.length === 0 && plan.predicates.length === 0) continue
    const subProofIndex = identifiers.length
    const { credential } = plan
    const schemaJson = own(schemas, credential.schemaId)
    if (schemaJson === undefined) throw invalid(`schema ${credential.schemaId} was not given`)
    const credDefJson = own(credentialDefinitions, credential.credDefId)
    if (credDefJson === undefined) throw invalid(`credential definition ${credential.credDefId} was not given`)
    const schema = parseSchema(schemaJson, `schemas.${credential.schemaId}`)
    const credDef = parseCredentialDefinition(credDefJson, `credentialDefinitions.${credential.credDefId}`)
    const subRequest = recordRequestedProof(plan, request, subProofIndex, requestedProof)
    builder.addSubProof(
      proofInput(credential, schema, credDef, linkSecret),
      subRequest,
      nonRevocationFor(plan, credDef, `credentialDefinitions.${credential.credDefId}`),
    )
    // As anoncreds-rs: a revocable credential names its registry even when it proves nothing about revocation.
    identifiers.push({
      schema_id: credential.schemaId,
      cred_def_id: credential.credDefId,
      rev_reg_id: credential.revRegId,
      timestamp: plan.timestamp,
    })
  }
  if (Object.keys(requestedProof.revealed_attr_groups ?? {}).length === 0) delete requestedProof.revealed_attr_groups
  const proof = builder.finalize(request.nonce)
  return { proof: proofToJson(proof), requested_proof: requestedProof, identifiers }
}

/** The non-revocation sub proof's first move, for a credential given with its revocation state. */
function nonRevocationFor(
  plan: EntryPlan,
  credDef: CredentialDefinition,
  path: string,
): ((m2Tilde: bigint) => NonRevocationInit) | undefined {
  const { revocationState: state } = plan
  const signature = plan.credential.revocation
  if (!state || !signature) return undefined
  if (credDef.revocation === null) throw invalid('the credential definition does not support revocation', path)
  const key = readingRevocation(`${path}.value.revocation`, () =>
    readRevocationPublicKey(credDef.revocation, `${path}.value.revocation`),
  )
  return (m2Tilde) => initNonRevocationProof(key, signature, state.accumulator, state.witness, m2Tilde)
}

function proofInput(credential: Credential, schema: Schema, credDef: CredentialDefinition, linkSecret: bigint) {
  const values = new Map<string, bigint>()
  for (const [name, value] of credential.values) values.set(name, BigInt(value.encoded))
  values.set(LINK_SECRET_ATTRIBUTE, linkSecret)
  return { publicKey: credDef.publicKey, signature: credential.signature, values, schemaAttrs: schema.attrNames }
}

function attributeValue(credential: Credential, name: string): { raw: string; encoded: string } {
  const value = credential.values.get(canonicalAttributeName(name))
  if (!value) throw invalid(`the credential has no value for attribute "${name}"`)
  return { raw: value.raw, encoded: value.encoded }
}

/** Fills requested_proof for one credential and returns what its CL sub proof must show. */
function recordRequestedProof(
  plan: EntryPlan,
  request: PresentationRequest,
  subProofIndex: number,
  requestedProof: RequestedProofJson,
): SubProofRequest {
  const revealed = new Set<string>()
  for (const { referent, reveal } of plan.attributes) {
    const attribute = request.attributes.get(referent) ?? unreachable(referent)
    if (!reveal) {
      requestedProof.unrevealed_attrs[referent] = { sub_proof_index: subProofIndex }
      continue
    }
    if (attribute.name !== undefined) {
      requestedProof.revealed_attrs[referent] = {
        sub_proof_index: subProofIndex,
        ...attributeValue(plan.credential, attribute.name),
      }
      revealed.add(canonicalAttributeName(attribute.name))
    } else {
      const values: Record<string, { raw: string; encoded: string }> = {}
      for (const name of attribute.names ?? []) {
        values[name] = attributeValue(plan.credential, name)
        revealed.add(canonicalAttributeName(name))
      }
      ;(requestedProof.revealed_attr_groups ??= {})[referent] = { sub_proof_index: subProofIndex, values }
    }
  }
  const predicates: ClPredicate[] = []
  for (const referent of plan.predicates) {
    const predicate = request.predicates.get(referent) ?? unreachable(referent)
    requestedProof.predicates[referent] = { sub_proof_index: subProofIndex }
    predicates.push({
      attrName: canonicalAttributeName(predicate.name),
      pType: predicate.pType,
      value: predicate.pValue,
    })
  }
  return { revealed: [...revealed], predicates: dedupePredicates(predicates) }
}

function sortedRecord(map: ReadonlyMap<string, bigint>): Record<string, string> {
  return Object.fromEntries(
    [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, toDecimal(v)]),
  )
}

function numbered(values: readonly bigint[], delta?: bigint): Record<string, string> {
  const record: Record<string, string> = {}
  values.forEach((value, i) => (record[String(i)] = toDecimal(value)))
  if (delta !== undefined) record.DELTA = toDecimal(delta)
  return record
}

function proofToJson(proof: ClProof): PresentationJson['proof'] {
  const proofs = proof.proofs.map(
    ({ eqProof, geProofs, nonRevocProof }): SubProofJson => ({
      primary_proof: {
        eq_proof: {
          revealed_attrs: sortedRecord(eqProof.revealedAttrs),
          a_prime: toDecimal(eqProof.aPrime),
          e: toDecimal(eqProof.e),
          v: toDecimal(eqProof.v),
          m: sortedRecord(eqProof.m),
          m2: toDecimal(eqProof.m2),
        },
        ge_proofs: geProofs.map(
          (ge): GeProofJson => ({
            u: numbered(ge.u),
            r: numbered(ge.r, ge.rDelta),
            mj: toDecimal(ge.mj),
            alpha: toDecimal(ge.alpha),
            t: numbered(ge.t, ge.tDelta),
            predicate: { attr_name: ge.predicate.attrName, p_type: ge.predicate.pType, value: ge.predicate.value },
          }),
        ),
      },
      non_revoc_proof: nonRevocProof ?? null,
    }),
  )
  return {
    proofs,
    aggregated_proof: { c_hash: toDecimal(proof.cHash), c_list: proof.cList.map((bytes) => [...bytes]) },
  }
}

// Referents were checked against the request when the plan was made.
function unreachable(referent: string): never {
  throw invalid(`referent "${referent}" is not in the presentation request`)
}
