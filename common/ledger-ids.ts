import { INDY_DID_PATTERN } from './agent-contract/ledger'

/**
 * Identifiers of what an Indy ledger holds, in their two forms: legacy Indy ids (`<did>:2:<name>:<version>`,
 * `<did>:3:CL:<schemaSeqNo>:<tag>`, `<did>:4:<did>:3:CL:<schemaSeqNo>:<credDefTag>:CL_ACCUM:<tag>`) and did:indy ids
 * (`did:indy:<ns>:<did>/anoncreds/v0/SCHEMA/<name>/<version>`, `.../CLAIM_DEF/<schemaSeqNo>/<tag>`,
 * `.../REV_REG_DEF/<schemaSeqNo>/<credDefTag>/<tag>`, the did:indy method's AnonCreds object paths). Both name one
 * object (spec: Credential definition record; issue 22 item 1): the one parser and normaliser of them, for the
 * platform ledger and for every API route that takes such an id. Parsing never throws: a malformed id is `undefined`
 * (a 400 to the caller).
 */

const DID_CHARS = '[1-9A-HJ-NP-Za-km-z]{21,22}'
/** did:indy's namespace: a name and at most one sub-namespace (`sovrin:staging`; `idplane-test` of the test registry). */
const NAMESPACE = '[a-z0-9]+(?:-[a-z0-9]+)*(?::[a-z0-9]+(?:-[a-z0-9]+)*)?'
/** Schema names and cred-def tags: no separator of either id form, no control characters. */
const NAME = '[^:/\\u0000-\\u001f\\u007f]{1,256}'
/** Indy schema versions: dotted numbers (what indy-vdr's legacy id patterns accept). */
const VERSION = '[0-9]+(?:\\.[0-9]+){0,3}'
const SEQ_NO = '[1-9][0-9]{0,15}'

export const SCHEMA_NAME_PATTERN = new RegExp(`^${NAME}$`)
export const SCHEMA_VERSION_PATTERN = new RegExp(`^${VERSION}$`)
export const CRED_DEF_TAG_PATTERN = SCHEMA_NAME_PATTERN
export const REV_REG_TAG_PATTERN = SCHEMA_NAME_PATTERN

const LEGACY_SCHEMA = new RegExp(`^(${DID_CHARS}):2:(${NAME}):(${VERSION})$`)
const INDY_SCHEMA = new RegExp(`^did:indy:(${NAMESPACE}):(${DID_CHARS})/anoncreds/v0/SCHEMA/(${NAME})/(${VERSION})$`)
const LEGACY_CRED_DEF = new RegExp(`^(${DID_CHARS}):3:CL:(${SEQ_NO}):(${NAME})$`)
const INDY_CRED_DEF = new RegExp(
  `^did:indy:(${NAMESPACE}):(${DID_CHARS})/anoncreds/v0/CLAIM_DEF/(${SEQ_NO})/(${NAME})$`,
)
// A registry's credential definition is its author's own (Indy's rule): the DID appears twice in the legacy form.
const LEGACY_REV_REG = new RegExp(`^(${DID_CHARS}):4:(${DID_CHARS}):3:CL:(${SEQ_NO}):(${NAME}):CL_ACCUM:(${NAME})$`)
const INDY_REV_REG = new RegExp(
  `^did:indy:(${NAMESPACE}):(${DID_CHARS})/anoncreds/v0/REV_REG_DEF/(${SEQ_NO})/(${NAME})/(${NAME})$`,
)
const INDY_DID = new RegExp(`^did:indy:(${NAMESPACE}):(${DID_CHARS})$`)
const SOV_DID = new RegExp(`^did:sov:(${DID_CHARS})$`)

export interface SchemaRef {
  /** The namespace of a did:indy id; absent for a legacy id. */
  namespace?: string
  did: string
  name: string
  version: string
}

export interface CredDefRef {
  namespace?: string
  did: string
  schemaSeqNo: number
  tag: string
}

export interface RevRegRef {
  namespace?: string
  did: string
  schemaSeqNo: number
  credDefTag: string
  tag: string
}

export interface DidRef {
  /** How the DID was asked for: the DID document uses the same method. */
  method: 'indy' | 'sov' | 'bare'
  namespace?: string
  did: string
}

export function parseSchemaId(id: string): SchemaRef | undefined {
  const legacy = LEGACY_SCHEMA.exec(id)
  if (legacy) {
    const [, did = '', name = '', version = ''] = legacy
    return { did, name, version }
  }
  const indy = INDY_SCHEMA.exec(id)
  if (!indy) return undefined
  const [, namespace = '', did = '', name = '', version = ''] = indy
  return { namespace, did, name, version }
}

export function parseCredDefId(id: string): CredDefRef | undefined {
  const legacy = LEGACY_CRED_DEF.exec(id)
  if (legacy) {
    const [, did = '', seqNo, tag = ''] = legacy
    return { did, schemaSeqNo: Number(seqNo), tag }
  }
  const indy = INDY_CRED_DEF.exec(id)
  if (!indy) return undefined
  const [, namespace = '', did = '', seqNo, tag = ''] = indy
  return { namespace, did, schemaSeqNo: Number(seqNo), tag }
}

export function parseRevRegId(id: string): RevRegRef | undefined {
  const legacy = LEGACY_REV_REG.exec(id)
  if (legacy) {
    const [, did = '', credDefDid, seqNo, credDefTag = '', tag = ''] = legacy
    return did === credDefDid ? { did, schemaSeqNo: Number(seqNo), credDefTag, tag } : undefined
  }
  const indy = INDY_REV_REG.exec(id)
  if (!indy) return undefined
  const [, namespace = '', did = '', seqNo, credDefTag = '', tag = ''] = indy
  return { namespace, did, schemaSeqNo: Number(seqNo), credDefTag, tag }
}

export function parseDid(id: string): DidRef | undefined {
  if (INDY_DID_PATTERN.test(id)) return { method: 'bare', did: id }
  const [, namespace, indyDid] = INDY_DID.exec(id) ?? []
  if (namespace && indyDid) return { method: 'indy', namespace, did: indyDid }
  const [, sovDid] = SOV_DID.exec(id) ?? []
  return sovDid ? { method: 'sov', did: sovDid } : undefined
}

export function legacySchemaId(ref: Pick<SchemaRef, 'did' | 'name' | 'version'>): string {
  return `${ref.did}:2:${ref.name}:${ref.version}`
}

export function indySchemaId(namespace: string, ref: Pick<SchemaRef, 'did' | 'name' | 'version'>): string {
  return `did:indy:${namespace}:${ref.did}/anoncreds/v0/SCHEMA/${ref.name}/${ref.version}`
}

export function legacyCredDefId(ref: Pick<CredDefRef, 'did' | 'schemaSeqNo' | 'tag'>): string {
  return `${ref.did}:3:CL:${ref.schemaSeqNo}:${ref.tag}`
}

export function indyCredDefId(namespace: string, ref: Pick<CredDefRef, 'did' | 'schemaSeqNo' | 'tag'>): string {
  return `did:indy:${namespace}:${ref.did}/anoncreds/v0/CLAIM_DEF/${ref.schemaSeqNo}/${ref.tag}`
}

export function legacyRevRegId(ref: Pick<RevRegRef, 'did' | 'schemaSeqNo' | 'credDefTag' | 'tag'>): string {
  return `${ref.did}:4:${legacyCredDefId({ did: ref.did, schemaSeqNo: ref.schemaSeqNo, tag: ref.credDefTag })}:CL_ACCUM:${ref.tag}`
}

export function indyRevRegId(
  namespace: string,
  ref: Pick<RevRegRef, 'did' | 'schemaSeqNo' | 'credDefTag' | 'tag'>,
): string {
  return `did:indy:${namespace}:${ref.did}/anoncreds/v0/REV_REG_DEF/${ref.schemaSeqNo}/${ref.credDefTag}/${ref.tag}`
}

/** Longest id accepted; ledger ids are far shorter. */
export const MAX_LEDGER_ID_LENGTH = 2048

/** A DID an Indy ledger can hold objects of: legacy (unqualified) or did:indy (not did:sov: no object id uses it). */
export function isIndyDid(did: string): boolean {
  const ref = parseDid(did)
  return ref !== undefined && ref.method !== 'sov'
}

export function isIndySchemaId(id: string): boolean {
  return id.length <= MAX_LEDGER_ID_LENGTH && parseSchemaId(id) !== undefined
}

export function isIndyCredentialDefinitionId(id: string): boolean {
  return id.length <= MAX_LEDGER_ID_LENGTH && parseCredDefId(id) !== undefined
}

/** One ledger object's id in both forms: `legacy` always, `didIndy` when its namespace is known. */
export interface LedgerIdForms {
  legacy: string
  didIndy: string | null
}

/**
 * The namespace a DID's objects get did:indy ids in: that of a did:indy DID; undefined for a legacy DID (its objects
 * have only the legacy form, unless the ledger's namespace is given) or anything else.
 */
export function namespaceOfDid(did: string): string | undefined {
  const ref = parseDid(did)
  return ref?.method === 'indy' ? ref.namespace : undefined
}

/**
 * Both forms of a schema id given in either; undefined when malformed. `namespace` (of the publishing DID) gives a
 * legacy id its did:indy form; a did:indy id keeps its own.
 */
export function schemaIdForms(id: string, namespace?: string): LedgerIdForms | undefined {
  const ref = id.length <= MAX_LEDGER_ID_LENGTH ? parseSchemaId(id) : undefined
  if (!ref) return undefined
  const ns = ref.namespace ?? namespace
  return { legacy: legacySchemaId(ref), didIndy: ns ? indySchemaId(ns, ref) : null }
}

/** Both forms of a credential definition id given in either; undefined when malformed (see schemaIdForms). */
export function credDefIdForms(id: string, namespace?: string): LedgerIdForms | undefined {
  const ref = id.length <= MAX_LEDGER_ID_LENGTH ? parseCredDefId(id) : undefined
  if (!ref) return undefined
  const ns = ref.namespace ?? namespace
  return { legacy: legacyCredDefId(ref), didIndy: ns ? indyCredDefId(ns, ref) : null }
}
