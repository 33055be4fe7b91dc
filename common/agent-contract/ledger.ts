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

/** What the author of a transaction signs (Ed25519, signature sent as base58). */
export function ledgerSigningBytes(input: {
  namespace: string
  type: LedgerTransactionType
  authorDid: string
  payload: unknown
}): Buffer {
  const { namespace, type, authorDid, payload } = input
  return Buffer.from(canonicalJson({ namespace, type, authorDid, payload }), 'utf8')
}

/** What the holder of a new DID's key signs to have the platform write its NYM (proof of possession). */
export function nymPossessionBytes(input: { namespace: string; did: string; verkey: string }): Buffer {
  const { namespace, did, verkey } = input
  return Buffer.from(canonicalJson({ namespace, type: 'NYM', did, verkey }), 'utf8')
}
