import { injectable, inject } from 'inversify'
import { Body, Get, HeaderParam, HttpCode, JsonController, Param, Post, QueryParam, Res } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { InvalidInputError } from '@idplane/common'
import { LEDGER_PATH } from '@idplane/common/agent-contract/ledger'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { created, ok, type Envelope } from '../../infra/http/envelope'
import { ClientIp } from '../../infra/rate-limit/client-ip'
import { RateLimiter, rateLimitKey } from '../../infra/rate-limit/rate-limiter'
import { TOKENS } from '../../infra/tokens'
import type { LedgerCheck } from './ledger-check'
import { LedgerHead } from './ledger-head.service'
import { LedgerReadsService, type DidResolution } from './ledger-reads.service'
import { LedgerRequesters } from './ledger-requesters'
import type {
  CredDefView,
  DidState,
  LedgerInfo,
  RevocationStatusListView,
  RevRegDefView,
  SchemaView,
  TransactionView,
} from './ledger-views'
import { ledgerConfig, type LedgerConfig } from './ledger.config'
import {
  CHAIN_CHECK_SCHEMA,
  CRED_DEF_VIEW_SCHEMA,
  DID_RESOLUTION_SCHEMA,
  DID_STATE_SCHEMA,
  LEDGER_INFO_SCHEMA,
  REV_REG_DEF_VIEW_SCHEMA,
  REVOCATION_STATUS_LIST_VIEW_SCHEMA,
  SCHEMA_VIEW_SCHEMA,
  TRANSACTION_SCHEMA,
} from './ledger.schemas'
import { arrayOf } from '../../infra/http/data-schema'
import { ResponseData } from '../../infra/http/response-doc'
import { LedgerService } from './ledger.service'

/** Only what the NYM route needs of the response: 201 for a new NYM, 200 for one already there. */
interface StatusSetter {
  status(code: number): unknown
}

const MAX_SEQ_NO = Number.MAX_SAFE_INTEGER
/** Seconds; beyond it a Date cannot hold the moment (8.64e15 ms). */
const MAX_TIMESTAMP = 8_640_000_000_000
export const DEFAULT_PAGE_LIMIT = 100
export const MAX_PAGE_LIMIT = 500

/** A whole number from a query or path value, in bounds; absent gives `fallback`. @throws InvalidInputError */
export function wholeNumber(
  value: unknown,
  field: string,
  bounds: { min: number; max: number },
  fallback?: number,
): number {
  if ((value === undefined || value === '') && fallback !== undefined) return fallback
  const text = typeof value === 'string' ? value : ''
  const number = /^[0-9]{1,16}$/.test(text) ? Number(text) : Number.NaN
  if (!Number.isSafeInteger(number) || number < bounds.min || number > bounds.max) {
    throw new InvalidInputError(`Invalid ${field}`, [
      { field, message: `${field} must be a whole number from ${bounds.min} to ${bounds.max}` },
    ])
  }
  return number
}

/**
 * The platform ledger over HTTP (docs/decisions.md, "Ledger (issue 13)"): public reads and signed writes (no
 * platform token: the signature is the authorization), and NYM requests by agents with their event token (the
 * cloud wallet's base agent: the base wallet's API key).
 */
@injectable()
@JsonController(LEDGER_PATH)
@OpenAPI({ tags: ['Ledger'] })
export class LedgerController {
  private readonly settings: LedgerConfig

  public constructor(
    private readonly ledger: LedgerService,
    private readonly reads: LedgerReadsService,
    private readonly head: LedgerHead,
    private readonly requesters: LedgerRequesters,
    private readonly rateLimiter: RateLimiter,
    @inject(TOKENS.Config) config: Config,
  ) {
    this.settings = sectionOf(config, ledgerConfig)
  }

  @Get()
  @OpenAPI({ summary: 'The ledger: namespace, trustee DID, genesis hash and head' })
  @ResponseData(LEDGER_INFO_SCHEMA)
  async info(): Promise<Envelope<LedgerInfo>> {
    return ok(await this.head.info(), 'Ledger')
  }

  @Post('/nyms')
  @OpenAPI({
    summary:
      'An agent asks the trustee to write the NYM of a DID it holds (agent event token, or the base wallet API key for the cloud wallet agent; proof of possession bound to the DID state: a replay is 409)',
    security: [{ bearer: [] }],
  })
  @ResponseData(TRANSACTION_SCHEMA, { errors: [400, 401, 409, 503], alsoAnswers: [201] })
  async requestNym(
    @HeaderParam('authorization') authorization: string,
    @Body({ validate: false }) body: unknown,
    @Res() res: StatusSetter,
  ): Promise<Envelope<TransactionView>> {
    const orgId = await this.requesters.requesterOf(authorization)
    if (!isObject(body)) {
      throw new InvalidInputError('Invalid NYM request', [{ field: 'body', message: 'body must be an object' }])
    }
    const { transaction, isNew } = await this.ledger.requestNym(body, orgId)
    if (!isNew) return ok(transaction, 'NYM already on the ledger')
    res.status(201)
    return created(transaction, 'NYM written')
  }

  @Post('/transactions')
  @HttpCode(201)
  @OpenAPI({
    summary:
      'A signed ATTRIB, SCHEMA, CRED_DEF, REVOC_REG_DEF or REVOC_REG_ENTRY write bound to the author DID state (a replay is 409, and so is a registry entry whose prevAccum is not the current accumulator; NYM: 403; 503 while the head does not match its anchor)',
  })
  @ResponseData(TRANSACTION_SCHEMA, { errors: [400, 403, 404, 409, 429, 503] })
  async append(
    @ClientIp() clientIp: string,
    @Body({ validate: false }) body: unknown,
  ): Promise<Envelope<TransactionView>> {
    await this.rateLimiter.enforce(
      [{ key: rateLimitKey('ledger-write', clientIp), rule: this.settings.writeLimit }],
      'Too many ledger writes from this address; try again later',
    )
    if (!isObject(body)) {
      throw new InvalidInputError('Invalid ledger transaction', [{ field: 'body', message: 'body must be an object' }])
    }
    const transaction = await this.ledger.append(body)
    return created(transaction, `${transaction.type} written`)
  }

  @Get('/transactions')
  @OpenAPI({ summary: 'The chain in ascending order from seqNo `from` (default 1), `limit` 1..500 (default 100)' })
  @ResponseData(arrayOf(TRANSACTION_SCHEMA), { errors: [400] })
  async list(
    @QueryParam('from') from?: string,
    @QueryParam('limit') limit?: string,
  ): Promise<Envelope<TransactionView[]>> {
    const start = wholeNumber(from, 'from', { min: 1, max: MAX_SEQ_NO }, 1)
    const count = wholeNumber(limit, 'limit', { min: 1, max: MAX_PAGE_LIMIT }, DEFAULT_PAGE_LIMIT)
    return ok(await this.reads.transactionsFrom(start, count), 'Ledger transactions')
  }

  @Get('/transactions/:seqNo')
  @OpenAPI({ summary: 'One transaction by seqNo' })
  @ResponseData(TRANSACTION_SCHEMA, { errors: [400] })
  async one(@Param('seqNo') seqNo: string): Promise<Envelope<TransactionView>> {
    const number = wholeNumber(seqNo, 'seqNo', { min: 1, max: MAX_SEQ_NO })
    return ok(await this.reads.transaction(number), 'Ledger transaction')
  }

  @Get('/verify')
  @OpenAPI({
    summary:
      'Recomputes hashes, links, signatures and bindings of seqNos `from`..`to` and names the first bad one; without `to`, also checks the signed anchor of the head and that every schema and credential definition record points at the ledger',
  })
  @ResponseData(CHAIN_CHECK_SCHEMA, { errors: [400] })
  async verify(@QueryParam('from') from?: string, @QueryParam('to') to?: string): Promise<Envelope<LedgerCheck>> {
    const start = wholeNumber(from, 'from', { min: 1, max: MAX_SEQ_NO }, 1)
    const end = to === undefined || to === '' ? undefined : wholeNumber(to, 'to', { min: start, max: MAX_SEQ_NO })
    const check = await this.head.verify({ from: start, to: end })
    return ok(check, verdictOf(check))
  }

  @Get('/schemas/:schema')
  @OpenAPI({ summary: 'A schema by legacy id or did:indy id (URL-encoded)' })
  @ResponseData(SCHEMA_VIEW_SCHEMA, { errors: [400] })
  async schema(@Param('schema') schemaId: string): Promise<Envelope<SchemaView>> {
    return ok(await this.reads.schema(schemaId), 'Schema')
  }

  @Get('/cred-defs/:credDef')
  @OpenAPI({ summary: 'A credential definition by legacy id or did:indy id (URL-encoded)' })
  @ResponseData(CRED_DEF_VIEW_SCHEMA, { errors: [400] })
  async credentialDefinition(@Param('credDef') credDefId: string): Promise<Envelope<CredDefView>> {
    return ok(await this.reads.credentialDefinition(credDefId), 'Credential definition')
  }

  @Get('/rev-reg-defs/:revRegDef')
  @OpenAPI({ summary: 'A revocation registry definition by legacy id or did:indy id (URL-encoded)' })
  @ResponseData(REV_REG_DEF_VIEW_SCHEMA, { errors: [400] })
  async revocationRegistryDefinition(@Param('revRegDef') revRegDefId: string): Promise<Envelope<RevRegDefView>> {
    return ok(await this.reads.revocationRegistryDefinition(revRegDefId), 'Revocation registry definition')
  }

  @Get('/rev-reg-defs/:revRegDef/status-list')
  @OpenAPI({
    summary:
      'The revocation status list of a registry at `timestamp` (seconds since the epoch; default now): the one its latest entry at or before it made (404 before the first entry)',
  })
  @ResponseData(REVOCATION_STATUS_LIST_VIEW_SCHEMA, { errors: [400] })
  async revocationStatusList(
    @Param('revRegDef') revRegDefId: string,
    @QueryParam('timestamp') timestamp?: string,
  ): Promise<Envelope<RevocationStatusListView>> {
    const now = Math.floor(Date.now() / 1000)
    const at = wholeNumber(timestamp, 'timestamp', { min: 0, max: MAX_TIMESTAMP }, now)
    return ok(await this.reads.revocationStatusList(revRegDefId, at), 'Revocation status list')
  }

  @Get('/dids/:did')
  @OpenAPI({ summary: 'The DID document of a ledger DID (did:indy:<ns>:<id>, did:sov:<id> or bare)' })
  @ResponseData(DID_RESOLUTION_SCHEMA, { errors: [400] })
  async did(@Param('did') did: string): Promise<Envelope<DidResolution>> {
    return ok(await this.reads.resolveDid(did), 'DID resolved')
  }

  @Get('/dids/:did/state')
  @OpenAPI({
    summary:
      "A DID's state: `lastSeqNo`, the seqNo of its latest transaction (0 when none), which its next signed write must carry",
  })
  @ResponseData(DID_STATE_SCHEMA, { errors: [400] })
  async didState(@Param('did') did: string): Promise<Envelope<DidState>> {
    return ok(await this.reads.didState(did), 'DID state')
  }
}

function verdictOf(check: LedgerCheck): string {
  if (!check.isValid && check.firstInvalid) return `Chain is broken at seqNo ${check.firstInvalid.seqNo}`
  if (check.anchor && !check.anchor.isValid)
    return `Ledger head does not match its signed anchor: ${check.anchor.reason}`
  if (check.references && !check.references.isValid) {
    return `${check.references.danglingCount} record(s) point at no transaction on the ledger`
  }
  return 'Chain is valid'
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
