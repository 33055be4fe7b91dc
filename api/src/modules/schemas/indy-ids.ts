import { hasControlCharacter } from '@idplane/common/request-input'

/**
 * The forms of Indy identifiers the platform accepts (spec: Schema record, Credential definition record). They are
 * checked here only for their shape: 400 for a malformed id, before any ledger is asked (404 for an absent one).
 */
const BASE58 = '[1-9A-HJ-NP-Za-km-z]'
/** A legacy (unqualified) Indy DID: base58 of 16 bytes. */
const LEGACY_DID = `${BASE58}{21,22}`
/** `did:indy:<namespace>:<did>`; a namespace may have sub-namespaces (`sovrin:staging`). */
const DID_INDY = `did:indy:[a-z0-9]+(?:[:-][a-z0-9]+)*:${LEGACY_DID}`

const LEGACY_DID_PATTERN = new RegExp(`^${LEGACY_DID}$`)
const DID_INDY_PATTERN = new RegExp(`^${DID_INDY}$`)
/** `<did>:2:<name>:<version>` or `did:indy:<ns>:<did>/anoncreds/v0/SCHEMA/<name>/<version>`. */
const SCHEMA_ID_PATTERN = new RegExp(
  `^(?:${LEGACY_DID}:2:[^:/]+:[0-9][0-9.]*|${DID_INDY}/anoncreds/v0/SCHEMA/[^/]+/[0-9][0-9.]*)$`,
)
/**
 * `<did>:3:CL:<schema seqNo or schema id>:<tag>` or `did:indy:<ns>:<did>/anoncreds/v0/CLAIM_DEF/<seqNo>/<tag>`;
 * the legacy form's middle part is a sequence number, or a whole schema id in ledgers that have none.
 */
const CRED_DEF_ID_PATTERN = new RegExp(
  `^(?:${LEGACY_DID}:3:CL:(?:[1-9][0-9]*|${LEGACY_DID}:2:[^:/]+:[0-9][0-9.]*):[^:/]+|${DID_INDY}/anoncreds/v0/CLAIM_DEF/[^/]+/[^/]+)$`,
)

/** Longest id accepted; ledger ids are far shorter. */
export const MAX_LEDGER_ID_LENGTH = 2048

/** A DID the Indy ledger can hold objects of: legacy (unqualified) or did:indy. */
export function isIndyDid(did: string): boolean {
  return LEGACY_DID_PATTERN.test(did) || DID_INDY_PATTERN.test(did)
}

export function isIndySchemaId(id: string): boolean {
  return id.length <= MAX_LEDGER_ID_LENGTH && !hasControlCharacter(id) && SCHEMA_ID_PATTERN.test(id)
}

export function isIndyCredentialDefinitionId(id: string): boolean {
  return id.length <= MAX_LEDGER_ID_LENGTH && !hasControlCharacter(id) && CRED_DEF_ID_PATTERN.test(id)
}
