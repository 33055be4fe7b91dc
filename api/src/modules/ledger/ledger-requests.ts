import { InvalidInputError, type FieldError } from '@idplane/common'
import {
  INDY_DID_PATTERN,
  LEDGER_TRANSACTION_TYPES,
  type LedgerTransactionType,
} from '@idplane/common/agent-contract/ledger'
import { didFromVerkey, verkeyBytes } from './ledger-crypto'
import { NYM_ROLES, type NymPayload } from './ledger-payloads'

/**
 * The envelopes of the ledger's write requests, checked field by field before anything is read from the ledger.
 * Payloads are checked per type in ledger-payloads.ts.
 */

/** A signed write as posted to `POST /v1/ledger/transactions`. */
export interface LedgerWrite {
  type: LedgerTransactionType
  authorDid: string
  payload: unknown
  signature: string
  /** The author's binding (common/agent-contract/ledger.ts, LedgerBinding). */
  lastSeqNo: number
}

const BASE58_SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{1,120}$/
const BINDING_HINT = "lastSeqNo must be the seqNo of the DID's latest transaction (GET /v1/ledger/dids/:did/state)"

/** Whether `value` is a binding: a whole number from 0. */
function isBinding(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
}

/** @throws InvalidInputError naming each bad field */
export function readLedgerWrite(write: Record<string, unknown>): LedgerWrite {
  const errors: FieldError[] = []
  const type = write.type as LedgerTransactionType
  if (!LEDGER_TRANSACTION_TYPES.includes(type)) {
    errors.push({ field: 'type', message: `type must be one of ${LEDGER_TRANSACTION_TYPES.join(', ')}` })
  }
  if (typeof write.authorDid !== 'string' || !INDY_DID_PATTERN.test(write.authorDid)) {
    errors.push({ field: 'authorDid', message: 'authorDid must be an unqualified Indy DID' })
  }
  if (typeof write.signature !== 'string' || !BASE58_SIGNATURE.test(write.signature)) {
    errors.push({ field: 'signature', message: 'signature must be a base58 Ed25519 signature' })
  }
  if (typeof write.payload !== 'object' || write.payload === null || Array.isArray(write.payload)) {
    errors.push({ field: 'payload', message: 'payload must be an object' })
  }
  if (!isBinding(write.lastSeqNo)) errors.push({ field: 'lastSeqNo', message: BINDING_HINT })
  if (errors.length > 0) throw new InvalidInputError('Invalid ledger transaction', errors)
  return {
    type,
    authorDid: write.authorDid as string,
    payload: write.payload,
    signature: write.signature as string,
    lastSeqNo: write.lastSeqNo as number,
  }
}

/** An agent's NYM request (`POST /v1/ledger/nyms`): the DID, its key, the proof of possession and its binding. */
export interface NymRequest {
  did: string
  verkey: string
  signature: string
  lastSeqNo: number
}

/** @throws InvalidInputError naming each bad field */
export function readNymRequest(body: Record<string, unknown>): NymRequest {
  const nym = readNymPayload(body)
  const errors: FieldError[] = []
  if (typeof body.signature !== 'string' || body.signature.length > 200) {
    errors.push({ field: 'signature', message: 'signature must be base58' })
  }
  if (!isBinding(body.lastSeqNo)) errors.push({ field: 'lastSeqNo', message: BINDING_HINT })
  if (errors.length > 0) throw new InvalidInputError('Invalid NYM request', errors)
  return { did: nym.dest, verkey: nym.verkey, signature: body.signature as string, lastSeqNo: body.lastSeqNo as number }
}

/** A NYM's payload from its parts. @throws InvalidInputError naming each bad field */
export function readNymPayload(input: {
  did?: unknown
  verkey?: unknown
  role?: unknown
  alias?: unknown
}): NymPayload {
  const errors: FieldError[] = []
  const verkey = typeof input.verkey === 'string' ? verkeyBytes(input.verkey) : undefined
  if (!verkey) errors.push({ field: 'verkey', message: 'verkey must be a base58 Ed25519 public key (32 bytes)' })
  if (typeof input.did !== 'string' || !INDY_DID_PATTERN.test(input.did)) {
    errors.push({ field: 'did', message: 'did must be an unqualified Indy DID (base58, 21 or 22 characters)' })
  } else if (verkey && didFromVerkey(verkey) !== input.did) {
    errors.push({ field: 'did', message: 'did must be base58 of the first 16 bytes of verkey' })
  }
  if (input.role !== undefined && !NYM_ROLES.includes(input.role as (typeof NYM_ROLES)[number])) {
    errors.push({ field: 'role', message: `role must be one of ${NYM_ROLES.join(', ')}` })
  }
  if (
    input.alias !== undefined &&
    (typeof input.alias !== 'string' || input.alias.length > 256 || input.alias.includes('\u0000'))
  ) {
    errors.push({ field: 'alias', message: 'alias must be a string of at most 256 characters' })
  }
  if (errors.length > 0) throw new InvalidInputError('Invalid NYM', errors)
  return {
    dest: input.did as string,
    verkey: input.verkey as string,
    ...(input.role !== undefined ? { role: input.role as NymPayload['role'] } : {}),
    ...(input.alias !== undefined ? { alias: input.alias as string } : {}),
  }
}
