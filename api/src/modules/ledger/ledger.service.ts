import { injectable } from 'inversify'
import { ConflictError, ForbiddenError, InvalidInputError } from '@idplane/common'
import {
  LEDGER_ACCUMULATOR_MOVED,
  LEDGER_PATH,
  LEDGER_STALE_REQUEST,
  didStatePath,
  nymPossessionBytes,
  type LedgerTransactionType,
} from '@idplane/common/agent-contract/ledger'
import { verifyEd25519 } from './ledger-crypto'
import { LedgerWritesRefusedError, StaleRequestError } from './ledger-errors'
import { LedgerHead } from './ledger-head.service'
import {
  legacyCredDefId,
  legacyRevRegId,
  legacySchemaId,
  parseCredDefId,
  parseSchemaId,
} from '@idplane/common/ledger-ids'
import { LedgerMetrics, type AppendOutcome } from './ledger-metrics'
import {
  checkCredDefAgainstSchema,
  readAttribPayload,
  readCredDefPayload,
  readRevRegDefPayload,
  readRevRegEntryPayload,
  readSchemaPayload,
  type AttribPayload,
  type CredDefPayload,
  type NymPayload,
  type RevRegDefPayload,
  type RevRegEntryPayload,
  type SchemaPayload,
} from './ledger-payloads'
import { readLedgerWrite, readNymPayload, readNymRequest, type LedgerWrite } from './ledger-requests'
import { LedgerTrustee } from './ledger-trustee'
import { toTransactionView, type TransactionView } from './ledger-views'
import {
  LedgerRepository,
  type ChainHeadSession,
  type NewTransaction,
  type StoredTransaction,
} from './ledger.repository'

/** A writer's decision under the chain head: append this, or answer with what is there (idempotent NYMs). */
type AppendDecision = { append: NewTransaction } | { existing: StoredTransaction }

/** Payload readers per signed type: adding a type adds a line here and its reader. */
const PAYLOAD_READERS: Record<Exclude<LedgerTransactionType, 'NYM'>, (payload: unknown) => unknown> = {
  ATTRIB: readAttribPayload,
  SCHEMA: readSchemaPayload,
  CRED_DEF: readCredDefPayload,
  REVOC_REG_DEF: readRevRegDefPayload,
  REVOC_REG_ENTRY: readRevRegEntryPayload,
}

/**
 * Writes to the platform's Indy-like ledger (docs/decisions.md, "Ledger (issue 13)" and "Ledger hardening
 * (issue 23)"): NYMs by the trustee (the platform endorses them), ATTRIB, SCHEMA and CRED_DEF signed by their
 * authors. Every write is bound to its author's latest transaction, so a signed request is accepted once, and goes
 * through the chain head (LedgerHead), which refuses writes while the head does not match its signed anchor.
 */
@injectable()
export class LedgerService {
  public constructor(
    private readonly transactions: LedgerRepository,
    private readonly head: LedgerHead,
    private readonly trustee: LedgerTrustee,
    private readonly metrics: LedgerMetrics,
  ) {}

  /**
   * A NYM authored by the trustee (for other modules: the platform endorses the DID). Idempotent for the same
   * verkey. No proof of possession here: callers inside the API vouch for it; the agents' route checks one.
   * @throws InvalidInputError when did is not the DID of verkey; ConflictError when the DID has another verkey;
   *   LedgerWritesRefusedError when the head does not match its anchor
   */
  public async writeNym(
    input: { did: string; verkey: string; role?: NymPayload['role']; alias?: string },
    requestedByOrgId?: string,
  ): Promise<{ transaction: TransactionView; isNew: boolean }> {
    return this.appendNym(readNymPayload(input), requestedByOrgId)
  }

  /**
   * An agent's NYM request: the signature proves the requester holds the new DID's key, and is bound to the DID's
   * state (0 before its NYM), so the request cannot be posted again once anything of that DID was appended.
   * @throws InvalidInputError (field signature, did, verkey or lastSeqNo), StaleRequestError for a request bound to
   *   an earlier state of the DID (a replay), ConflictError and LedgerWritesRefusedError as writeNym
   */
  public async requestNym(
    body: Record<string, unknown>,
    orgId: string | null,
  ): Promise<{ transaction: TransactionView; isNew: boolean }> {
    const request = readNymRequest(body)
    const proof = nymPossessionBytes({ namespace: this.trustee.namespace, ...request })
    if (!verifyEd25519(proof, request.signature, request.verkey)) {
      throw new InvalidInputError('The NYM request signature does not verify', [
        { field: 'signature', message: 'signature must be the verkey owner signature of the NYM request' },
      ])
    }
    return this.appendNym({ dest: request.did, verkey: request.verkey }, orgId ?? undefined, request.lastSeqNo)
  }

  /**
   * A signed write of any type but NYM. Whatever the type, the signature covers the author's binding and the
   * binding must be current.
   * @throws ForbiddenError for NYM, InvalidInputError for a bad body, unknown author, bad signature or a reference
   *   to what is not on the ledger (or not the author's), StaleRequestError for a request bound to an earlier state
   *   of its author (a replay), ConflictError when what it creates exists or a registry entry does not follow the
   *   registry's current accumulator, LedgerWritesRefusedError when the head is not anchored
   */
  public async append(body: Record<string, unknown>): Promise<TransactionView> {
    const write = readLedgerWrite(body)
    const { type } = write
    if (type === 'NYM')
      throw new ForbiddenError('NYM transactions are written by the trustee: use POST /v1/ledger/nyms')
    const payload = PAYLOAD_READERS[type](write.payload)
    if (type === 'ATTRIB' && (payload as AttribPayload).dest !== write.authorDid) {
      throw new InvalidInputError('Invalid ledger transaction', [
        {
          field: 'payload.dest',
          message: 'an ATTRIB is written by the DID it is about: payload.dest must be authorDid',
        },
      ])
    }
    const { transaction } = await this.measure(type, () =>
      this.write(async (session): Promise<AppendDecision> => {
        await this.checkAuthor(session, write, payload)
        return {
          append: {
            type,
            authorDid: write.authorDid,
            objectId: await this.objectIdOf(session, write, payload),
            payload: payload as Record<string, unknown>,
            signature: write.signature,
            lastSeqNo: write.lastSeqNo,
          },
        }
      }),
    )
    return toTransactionView(transaction, this.trustee.namespace)
  }

  /** One write under the chain head, which must be open for writes; the anchor moves with what is appended. */
  private write(decide: (session: ChainHeadSession) => Promise<AppendDecision>) {
    return this.transactions.underChainHead(async (session) => {
      await this.head.openForWrite(session)
      const decision = await decide(session)
      if ('existing' in decision) return { transaction: decision.existing, isNew: false }
      const transaction = await session.insert(decision.append)
      await this.head.anchorAfter(session, transaction)
      return { transaction, isNew: true }
    })
  }

  /** A trustee NYM; `requesterBinding` is the requesting agent's binding on the new DID (checked under the lock). */
  private async appendNym(payload: NymPayload, requestedByOrgId: string | undefined, requesterBinding?: number) {
    const { transaction, isNew } = await this.measure('NYM', () =>
      this.write(async (session): Promise<AppendDecision> => {
        if (requesterBinding !== undefined) await checkBinding(session, payload.dest, requesterBinding)
        const existing = await session.findNym(payload.dest)
        if (existing) {
          if ((existing.payload as { verkey?: unknown }).verkey === payload.verkey) return { existing }
          throw new ConflictError(`DID ${payload.dest} is already on the ledger with another verkey`)
        }
        const lastSeqNo = await session.lastSeqNoOf(this.trustee.did)
        return {
          append: {
            type: 'NYM',
            authorDid: this.trustee.did,
            objectId: payload.dest,
            payload: { ...payload },
            signature: this.trustee.sign(this.trustee.signingBytes('NYM', this.trustee.did, payload, lastSeqNo)),
            lastSeqNo,
            requestedByOrgId: requestedByOrgId ?? null,
          },
        }
      }),
    )
    return { transaction: toTransactionView(transaction, this.trustee.namespace), isNew }
  }

  /** The author's NYM, signature and binding. @throws InvalidInputError, StaleRequestError */
  private async checkAuthor(session: ChainHeadSession, write: LedgerWrite, payload: unknown): Promise<void> {
    const nym = await session.findNym(write.authorDid)
    if (!nym) {
      throw new InvalidInputError('Unknown author', [
        { field: 'authorDid', message: 'authorDid has no NYM on this ledger' },
      ])
    }
    const verkey = (nym.payload as { verkey: string }).verkey
    const bytes = this.trustee.signingBytes(write.type, write.authorDid, payload, write.lastSeqNo)
    if (!verifyEd25519(bytes, write.signature, verkey)) {
      throw new InvalidInputError('The transaction signature does not verify', [
        { field: 'signature', message: 'signature must be the author verkey signature of the transaction' },
      ])
    }
    await checkBinding(session, write.authorDid, write.lastSeqNo)
  }

  /**
   * What a SCHEMA, CRED_DEF or REVOC_REG_DEF creates (null for an ATTRIB and a REVOC_REG_ENTRY, which is checked
   * against its registry). @throws InvalidInputError, ConflictError
   */
  private async objectIdOf(session: ChainHeadSession, write: LedgerWrite, payload: unknown): Promise<string | null> {
    let objectId: string | null = null
    if (write.type === 'REVOC_REG_DEF') objectId = await revRegDefIdOf(session, write, payload as RevRegDefPayload)
    if (write.type === 'REVOC_REG_ENTRY') await checkRevRegEntry(session, write, payload as RevRegEntryPayload)
    if (write.type === 'SCHEMA') objectId = legacySchemaId({ did: write.authorDid, ...(payload as SchemaPayload) })
    if (write.type === 'CRED_DEF') {
      const credDef = payload as CredDefPayload
      const schemaRef = parseSchemaId(credDef.schemaId)
      const schema = schemaRef && !schemaRef.namespace ? await session.findByObjectId(credDef.schemaId) : undefined
      if (!schema || schema.type !== 'SCHEMA') {
        throw new InvalidInputError('Unknown schema', [
          { field: 'payload.schemaId', message: 'payload.schemaId must be the legacy id of a schema on this ledger' },
        ])
      }
      checkCredDefAgainstSchema(credDef, (schema.payload as unknown as SchemaPayload).attrNames)
      objectId = legacyCredDefId({ did: write.authorDid, schemaSeqNo: schema.seqNo, tag: credDef.tag })
    }
    if (objectId !== null && (await session.findByObjectId(objectId))) {
      throw new ConflictError(`${objectId} is already on the ledger`)
    }
    return objectId
  }

  private async measure<T extends { isNew: boolean }>(type: LedgerTransactionType, work: () => Promise<T>): Promise<T> {
    const stop = this.metrics.appendDuration.startTimer({ type })
    let outcome: AppendOutcome = 'error'
    try {
      const result = await work()
      outcome = result.isNew ? 'appended' : 'existing'
      return result
    } catch (error) {
      outcome = outcomeOf(error)
      throw error
    } finally {
      stop()
      this.metrics.appends.inc({ type, outcome })
    }
  }
}

/** A registry's id, once its credential definition is the author's and supports revocation. */
async function revRegDefIdOf(session: ChainHeadSession, write: LedgerWrite, payload: RevRegDefPayload) {
  const credDef = await session.findByObjectId(payload.credDefId)
  const ref = parseCredDefId(payload.credDefId)
  if (!credDef || credDef.type !== 'CRED_DEF' || !ref) {
    throw refusal(
      'Unknown credential definition',
      'payload.credDefId',
      'must name a credential definition on this ledger',
    )
  }
  if (credDef.authorDid !== write.authorDid) {
    throw refusal(
      'Not your credential definition',
      'payload.credDefId',
      'must name a credential definition written by authorDid',
    )
  }
  const revocation = (credDef.payload as unknown as CredDefPayload).value.revocation
  if (revocation === undefined || revocation === null) {
    throw refusal(
      'The credential definition does not support revocation',
      'payload.credDefId',
      'must name a credential definition with a revocation key (value.revocation)',
    )
  }
  return legacyRevRegId({ did: write.authorDid, schemaSeqNo: ref.schemaSeqNo, credDefTag: ref.tag, tag: payload.tag })
}

/**
 * An entry follows its registry: the registry is on the ledger and the author's, the indices are within it, and the
 * entry moves from the registry's current accumulator (prevAccum, absent on the first entry). A prevAccum that is not
 * the current one is a ConflictError: another entry was written since the issuer read the status list.
 * @throws InvalidInputError, ConflictError
 */
async function checkRevRegEntry(session: ChainHeadSession, write: LedgerWrite, payload: RevRegEntryPayload) {
  const definition = await session.findByObjectId(payload.revRegDefId)
  if (!definition || definition.type !== 'REVOC_REG_DEF') {
    throw refusal(
      'Unknown revocation registry',
      'payload.revRegDefId',
      'must name a revocation registry definition on this ledger',
    )
  }
  if (definition.authorDid !== write.authorDid) {
    throw refusal('Not your revocation registry', 'payload.revRegDefId', 'must name a registry written by authorDid')
  }
  const { maxCredNum } = (definition.payload as unknown as RevRegDefPayload).value
  for (const list of ['issued', 'revoked'] as const) {
    const beyond = (payload.value[list] ?? []).find((index) => index > maxCredNum - 1)
    if (beyond !== undefined) {
      throw refusal(
        'Invalid ledger transaction payload',
        `payload.value.${list}`,
        `must hold indices from 1 to ${maxCredNum - 1} (the registry's maxCredNum is ${maxCredNum}); ${beyond} is not`,
      )
    }
  }
  const latest = await session.latestRevRegEntry(payload.revRegDefId)
  const current = (latest?.payload as unknown as RevRegEntryPayload | undefined)?.value.accum
  if (current === undefined && payload.value.prevAccum !== undefined) {
    throw refusal('Invalid ledger transaction payload', 'payload.value.prevAccum', 'must be absent on the first entry')
  }
  if (current !== undefined && payload.value.prevAccum === undefined) {
    throw refusal(
      'Invalid ledger transaction payload',
      'payload.value.prevAccum',
      "must be the registry's current accumulator (its status list's currentAccumulator)",
    )
  }
  if (current !== undefined && payload.value.prevAccum !== current) {
    throw new ConflictError(
      `${LEDGER_ACCUMULATOR_MOVED} (its latest entry is seqNo ${latest?.seqNo}): read the status list again and send the change from it`,
    )
  }
}

function refusal(message: string, field: string, hint: string): InvalidInputError {
  return new InvalidInputError(message, [{ field, message: `${field} ${hint}` }])
}

/** @throws StaleRequestError when `lastSeqNo` is not the DID's latest transaction */
async function checkBinding(session: ChainHeadSession, did: string, lastSeqNo: number): Promise<void> {
  const current = await session.lastSeqNoOf(did)
  if (current === lastSeqNo) return
  throw new StaleRequestError(
    `${LEDGER_STALE_REQUEST}: it is bound to seqNo ${lastSeqNo}, but the latest transaction of ${did} is ${current}; ` +
      `a signed request is accepted once (read GET ${LEDGER_PATH}${didStatePath(did)}, sign again and resend)`,
  )
}

function outcomeOf(error: unknown): AppendOutcome {
  if (error instanceof StaleRequestError) return 'stale'
  if (error instanceof ConflictError) return 'conflict'
  if (error instanceof LedgerWritesRefusedError) return 'refused'
  if (error instanceof InvalidInputError || error instanceof ForbiddenError) return 'rejected'
  return 'error'
}
