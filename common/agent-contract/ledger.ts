/**
 * The platform ledger's wire contract, shared by the API (api/src/modules/ledger/, which verifies and appends) and
 * the agents (which sign what they write and read what others wrote). Indy's semantics: NYM, ATTRIB, SCHEMA and
 * CRED_DEF transactions with legacy identifiers; every write signed by its author's Ed25519 key.
 */
export const LEDGER_PATH = '/v1/ledger'

export const LEDGER_TRANSACTION_TYPES = [
  'NYM',
  'ATTRIB',
  'SCHEMA',
  'CRED_DEF',
  'REVOC_REG_DEF',
  'REVOC_REG_ENTRY',
] as const
export type LedgerTransactionType = (typeof LEDGER_TRANSACTION_TYPES)[number]

/**
 * Where the platform keeps tails files of AnonCreds revocation registries: `POST` the bytes (application/octet-stream,
 * an agent's event token) to store one; `GET <path>/<tailsHash>` serves it to anyone (the definition's
 * `tailsLocation`). The name is the file's hash, base58(SHA-256), so a reader checks what it got against the name.
 */
export const TAILS_FILES_PATH = '/v1/tails-files'

/** What the platform answers for a stored tails file. */
export interface StoredTailsFile {
  tailsHash: string
  /** The public URL of the file: a revocation registry definition's `value.tailsLocation`. */
  tailsLocation: string
  size: number
}

/** An unqualified Indy DID: base58 of the first 16 bytes of an Ed25519 verkey (21 or 22 characters). */
export const INDY_DID_PATTERN = /^[1-9A-HJ-NP-Za-km-z]{21,22}$/

/**
 * JSON with object keys sorted (recursively) and no whitespace: the bytes that are signed and hashed, so that the
 * writer and every reader compute the same ones whatever order a JSON library emits keys in. Arrays keep their order;
 * `undefined` members are dropped as JSON.stringify drops them.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value)
    if (text === undefined) throw new TypeError(`canonicalJson: ${typeof value} is not JSON`)
    return text
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`
  const members = Object.keys(value)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
  return `{${members.join(',')}}`
}

/** The ledger's answer to `GET <LEDGER_PATH>/rev-reg-defs/:id`: anoncreds' RevocationRegistryDefinition. */
export interface RevocationRegistryDefinitionAnswer {
  revocationRegistryDefinitionId: string
  revocationRegistryDefinition: {
    issuerId: string
    revocDefType: 'CL_ACCUM'
    tag: string
    credDefId: string
    value: {
      maxCredNum: number
      publicKeys: { accumKey: { z: string } }
      tailsHash: string
      tailsLocation: string
    }
  }
  seqNo: number
  txnTime: string
}

/**
 * The ledger's answer to `GET <LEDGER_PATH>/rev-reg-defs/:id/status-list`: anoncreds' RevocationStatusList at a
 * moment, and the entry (the latest at or before it) that made it. The API builds it; the agent's registry reads it.
 */
export interface RevocationStatusListAnswer {
  revocationStatusList: {
    issuerId: string
    revRegDefId: string
    /** 1 for a revoked index, 0 otherwise; maxCredNum entries (entry 0 is no credential). */
    revocationList: number[]
    currentAccumulator: string
    /** The entry's ledger time in seconds: what holders' revocation states and presentations name. */
    timestamp: number
  }
  seqNo: number
  txnTime: string
}

/**
 * The binding that makes a signed request good once (issue 23, item 4): the seqNo of the latest transaction of the
 * signing DID (its NYM, or one it authored) when the request is signed; 0 for a DID not on the ledger yet. The
 * ledger accepts a request only while that is still the DID's latest transaction, so a request is refused once
 * anything of that DID (this request included) has been appended after it was signed: a replay, or an old request
 * posted after a newer one. Read it from `GET /v1/ledger/dids/:did/state` just before signing.
 */
export interface LedgerBinding {
  lastSeqNo: number
}

/** The path (under LEDGER_PATH) of a DID's state: `{ did, lastSeqNo }`. */
export function didStatePath(did: string): string {
  return `/dids/${encodeURIComponent(did)}/state`
}

/**
 * Words every refusal of a request bound to an earlier state of its DID starts with (HTTP 409): an honest writer
 * reads the state again, signs again and retries once (two writes of one DID raced); a replay stays refused.
 */
export const LEDGER_STALE_REQUEST = 'Stale ledger request'

/**
 * Words every refusal of a REVOC_REG_ENTRY whose `prevAccum` is not its registry's current accumulator starts with
 * (HTTP 409): another entry was written since the issuer read the status list; read it again and send the change
 * from it.
 */
export const LEDGER_ACCUMULATOR_MOVED = 'The accumulator of the registry has moved'

/**
 * What the author of a transaction signs (Ed25519, signature sent as base58). `lastSeqNo` is the author's binding
 * (LedgerBinding); transactions written before bindings existed were signed without it, and canonicalJson drops an
 * undefined member, so their bytes are unchanged.
 */
export function ledgerSigningBytes(input: {
  namespace: string
  type: LedgerTransactionType
  authorDid: string
  payload: unknown
  lastSeqNo?: number
}): Buffer {
  const { namespace, type, authorDid, payload, lastSeqNo } = input
  return Buffer.from(canonicalJson({ namespace, type, authorDid, payload, lastSeqNo }), 'utf8')
}

/**
 * What the holder of a new DID's key signs to have the platform write its NYM (proof of possession), bound to the
 * DID's state (`lastSeqNo`: 0 while the DID is not on the ledger) so that the request cannot be posted again later.
 * Possession proofs are never stored, so there is no unbound form to verify.
 */
export function nymPossessionBytes(input: {
  namespace: string
  did: string
  verkey: string
  lastSeqNo: number
}): Buffer {
  const { namespace, did, verkey, lastSeqNo } = input
  return Buffer.from(canonicalJson({ namespace, type: 'NYM', did, verkey, lastSeqNo }), 'utf8')
}
