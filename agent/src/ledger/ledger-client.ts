import { STATUS_CODES } from 'node:http'

import {
  didStatePath,
  LEDGER_PATH,
  LEDGER_STALE_REQUEST,
  ledgerSigningBytes,
  type LedgerTransactionType,
  nymPossessionBytes,
  type RevocationRegistryDefinitionAnswer,
  type RevocationStatusListAnswer,
  type StoredTailsFile,
  TAILS_FILES_PATH,
} from '@idplane/common/agent-contract/ledger'

import { KeyedQueue } from '../adapters/storage/keyed-queue'
import { type HttpAnswer, httpRequest, HttpTimeoutError } from '../transport/http-request'

/** @default 10 seconds for one request to the ledger */
export const DEFAULT_LEDGER_TIMEOUT_MS = 10_000
/** @default 3 attempts of a request that met a network error, a timeout or a 5xx */
export const DEFAULT_LEDGER_ATTEMPTS = 3
/** @default 250 ms before the first retry, doubled each time (with jitter) */
export const DEFAULT_LEDGER_RETRY_BASE_MS = 250

/** The platform's answer to `GET /v1/ledger`. */
export interface LedgerInfo {
  namespace: string
  trusteeDid: string
  genesisHash?: string
  head?: { seqNo: number; hash: string }
}

/** One transaction as the ledger answers it. */
export interface LedgerTransaction {
  seqNo: number
  type: LedgerTransactionType
  authorDid: string
  objectId: string | null
  payload: unknown
  signature: string
  /** The author's binding the signature covers (absent on transactions written before bindings). */
  lastSeqNo?: number
  prevHash: string
  hash: string
  txnTime: string
  /** SCHEMA and CRED_DEF: the legacy identifier and its did:indy form. */
  id?: string
  didIndyId?: string
}

export interface LedgerSchemaAnswer {
  schemaId: string
  schema: { issuerId: string; name: string; version: string; attrNames: string[] }
  seqNo: number
  txnTime?: string
}

export interface LedgerCredentialDefinitionAnswer {
  credentialDefinitionId: string
  credentialDefinition: {
    issuerId: string
    schemaId: string
    type: 'CL'
    tag: string
    value: { primary: Record<string, unknown>; revocation?: unknown }
  }
  seqNo: number
  txnTime?: string
}

/** The ledger's registry-definition answer; `txnTime` is not relied on here. */
export type LedgerRevocationRegistryDefinitionAnswer = Omit<RevocationRegistryDefinitionAnswer, 'txnTime'> & {
  txnTime?: string
}

/** The ledger's status-list answer; `txnTime` is not relied on here. */
export type LedgerRevocationStatusListAnswer = Omit<RevocationStatusListAnswer, 'txnTime'> & { txnTime?: string }

/** A DID's state: the seqNo of its latest transaction (0 when none), which its next signed request is bound to. */
export interface LedgerDidState {
  did: string
  lastSeqNo: number
}

/** Signs the bytes of a ledger request with the signing DID's key: a base58 Ed25519 signature. */
export type LedgerRequestSigner = (data: Uint8Array) => Promise<string>

export interface LedgerDidAnswer {
  didDocument: Record<string, unknown>
  didDocumentMetadata?: Record<string, unknown>
}

/** Words every "no ledger here" message starts with (the admin routes answer 501 for them). */
export const LEDGER_NOT_CONFIGURED = 'No ledger is configured for this agent'
/** Words of every "ledger did not answer" message (the admin routes answer 502 for them). */
export const LEDGER_UNREACHABLE = 'The ledger did not answer'

/** What the ledger said when it answered a request with a 4xx or 5xx. */
export class LedgerHttpError extends Error {
  public constructor(
    public readonly status: number,
    message: string,
    /** An earlier attempt of this write met a network error or a 5xx: it may have been appended all the same. */
    public readonly afterUncertainAttempt = false,
  ) {
    super(message)
    this.name = 'LedgerHttpError'
  }
}

/** The ledger could not be reached (network error or timeout on every attempt). */
export class LedgerUnavailableError extends Error {
  public constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'LedgerUnavailableError'
  }
}

/** The agent was started without a ledger (no AGENT_LEDGER_URL and no AGENT_EVENT_URL). */
export class LedgerNotConfiguredError extends Error {
  public constructor(
    message = `${LEDGER_NOT_CONFIGURED} (set AGENT_LEDGER_URL, or AGENT_EVENT_URL whose origin serves it)`,
  ) {
    super(message)
    this.name = 'LedgerNotConfiguredError'
  }
}

export interface LedgerClientOptions {
  /** The ledger's base URL (the API's origin); `/v1/ledger` is appended. Undefined: every call throws. */
  baseUrl: string | undefined
  /** The agent's event token: the Bearer the platform accepts for `POST /v1/ledger/nyms`. */
  token?: string
  timeoutMs?: number
  attempts?: number
  retryBaseMs?: number
  /** Called once per request (every attempt included) with its route, outcome and duration, for metrics. */
  onRequest?: (observation: { route: string; outcome: string; seconds: number }) => void
  /** For tests: the pause between attempts. */
  sleep?: (ms: number) => Promise<void>
}

/** How one signed write is made: its bytes and its body for a binding. */
interface BoundWrite {
  did: string
  bytes(namespace: string, lastSeqNo: number): Uint8Array
  request(signature: string, lastSeqNo: number): RequestOptions
  /** Whether a transaction on the ledger is this very request (checked after an unanswered attempt). */
  isThis?(transaction: LedgerTransaction, signature: string): boolean
}

interface RequestOptions {
  route: string
  path: string
  method: 'GET' | 'POST'
  body?: unknown
  /** Bytes sent as application/octet-stream instead of a JSON body. */
  bytes?: Uint8Array
  authorized?: boolean
  /** The platform path `path` is under (default LEDGER_PATH). */
  base?: string
}

/**
 * A small client of the platform ledger's HTTP routes (docs/agent.md, Ledger). Network errors, timeouts and 5xx
 * answers are retried with exponential backoff and jitter; 4xx answers are final and thrown as LedgerHttpError
 * with the platform's message. Answers in the platform's envelope (`{ statusCode, message, data }`) are unwrapped.
 * The namespace is read from `GET /v1/ledger` at first use and kept (a failed read is tried again next time).
 * Signed writes are bound to their DID's state (LedgerBinding in common/agent-contract/ledger.ts): read just before
 * signing, one write of a DID at a time in this client, and signed again once when another writer of the DID got
 * there first.
 */
export class LedgerClient {
  private readonly timeoutMs: number
  private readonly attempts: number
  private readonly retryBaseMs: number
  private readonly sleep: (ms: number) => Promise<void>
  private info: Promise<LedgerInfo> | undefined
  /** Writes of one DID go one after another: each reads the state the previous one left. */
  private readonly writesByDid = new KeyedQueue()

  public constructor(private readonly options: LedgerClientOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_LEDGER_TIMEOUT_MS
    this.attempts = Math.max(1, options.attempts ?? DEFAULT_LEDGER_ATTEMPTS)
    this.retryBaseMs = options.retryBaseMs ?? DEFAULT_LEDGER_RETRY_BASE_MS
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
  }

  public get isConfigured(): boolean {
    return this.options.baseUrl !== undefined
  }

  /** `GET /v1/ledger`, once per process while it succeeds. */
  public async getInfo(): Promise<LedgerInfo> {
    if (!this.info) {
      const pending = this.request<LedgerInfo>({ route: 'info', path: '', method: 'GET' }).then((info) => {
        if (typeof info?.namespace !== 'string' || info.namespace === '')
          throw new LedgerUnavailableError(`${LEDGER_UNREACHABLE} GET ${LEDGER_PATH} with a namespace`)
        return info
      })
      this.info = pending
      // Forget a failed read (only this one: a later read may already be under way).
      pending.catch(() => {
        if (this.info === pending) this.info = undefined
      })
    }
    return this.info
  }

  public async getNamespace(): Promise<string> {
    return (await this.getInfo()).namespace
  }

  public async getSchema(schemaId: string): Promise<LedgerSchemaAnswer> {
    return this.request({ route: 'schema', path: `/schemas/${encodeURIComponent(schemaId)}`, method: 'GET' })
  }

  public async getCredentialDefinition(credentialDefinitionId: string): Promise<LedgerCredentialDefinitionAnswer> {
    return this.request({
      route: 'cred-def',
      path: `/cred-defs/${encodeURIComponent(credentialDefinitionId)}`,
      method: 'GET',
    })
  }

  public async getRevocationRegistryDefinition(
    revocationRegistryDefinitionId: string,
  ): Promise<LedgerRevocationRegistryDefinitionAnswer> {
    return this.request({
      route: 'rev-reg-def',
      path: `/rev-reg-defs/${encodeURIComponent(revocationRegistryDefinitionId)}`,
      method: 'GET',
    })
  }

  /** The registry's status list at `timestamp` (seconds), or now: the latest entry at or before it. */
  public async getRevocationStatusList(
    revocationRegistryDefinitionId: string,
    timestamp?: number,
  ): Promise<LedgerRevocationStatusListAnswer> {
    const query = timestamp === undefined ? '' : `?timestamp=${timestamp}`
    return this.request({
      route: 'status-list',
      path: `/rev-reg-defs/${encodeURIComponent(revocationRegistryDefinitionId)}/status-list${query}`,
      method: 'GET',
    })
  }

  /**
   * Stores a tails file on the platform (`POST /v1/tails-files`, the agent's event token); idempotent, the name being
   * the file's hash. Answers its hash and public URL (a registry definition's `tailsLocation`).
   */
  public async uploadTailsFile(bytes: Uint8Array): Promise<StoredTailsFile> {
    this.tokenOrThrow()
    return this.request({
      route: 'tails-file',
      path: '',
      base: TAILS_FILES_PATH,
      method: 'POST',
      bytes,
      authorized: true,
    })
  }

  public async getDid(did: string): Promise<LedgerDidAnswer> {
    return this.request({ route: 'did', path: `/dids/${encodeURIComponent(did)}`, method: 'GET' })
  }

  /** `GET /v1/ledger/dids/:did/state`: what the DID's next signed request must be bound to. */
  public async getDidState(did: string): Promise<LedgerDidState> {
    return this.request({ route: 'did-state', path: didStatePath(did), method: 'GET' })
  }

  public async getTransaction(seqNo: number): Promise<LedgerTransaction> {
    return this.request({ route: 'transaction', path: `/transactions/${seqNo}`, method: 'GET' })
  }

  /**
   * Appends an ATTRIB, SCHEMA or CRED_DEF signed by its author (`sign` holds the author's key), bound to the
   * author's current state.
   * @throws LedgerHttpError (a 409 naming LEDGER_STALE_REQUEST when other writers of the DID kept moving its state)
   */
  public async writeTransaction(
    write: { type: LedgerTransactionType; authorDid: string; payload: unknown },
    sign: LedgerRequestSigner,
  ): Promise<LedgerTransaction> {
    return this.writeBound(
      {
        did: write.authorDid,
        bytes: (namespace, lastSeqNo) => ledgerSigningBytes({ namespace, ...write, lastSeqNo }),
        request: (signature, lastSeqNo) => ({
          route: 'transactions',
          path: '/transactions',
          method: 'POST',
          body: { ...write, signature, lastSeqNo },
        }),
        isThis: (transaction, signature) =>
          transaction.authorDid === write.authorDid && transaction.signature === signature,
      },
      sign,
    )
  }

  /**
   * Asks the platform (its trustee) to write the NYM of a DID whose key this agent holds; `sign` proves it, bound to
   * the DID's state. Idempotent on the platform: the same NYM again answers with the one written.
   */
  public async writeNym(
    request: { did: string; verkey: string },
    sign: LedgerRequestSigner,
  ): Promise<LedgerTransaction> {
    this.tokenOrThrow()
    return this.writeBound(
      {
        did: request.did,
        bytes: (namespace, lastSeqNo) => nymPossessionBytes({ namespace, ...request, lastSeqNo }),
        request: (signature, lastSeqNo) => ({
          route: 'nyms',
          path: '/nyms',
          method: 'POST',
          body: { ...request, signature, lastSeqNo },
          authorized: true,
        }),
      },
      sign,
    )
  }

  /**
   * Reads the DID's state, signs, posts; one write per DID at a time. A stale answer means another writer of the DID
   * (another process) appended in between: read, sign and post again, once. After an attempt that went unanswered,
   * a stale answer may be this very request having been appended: the DID's latest transaction is checked first.
   */
  private writeBound(write: BoundWrite, sign: LedgerRequestSigner): Promise<LedgerTransaction> {
    return this.writesByDid.run(write.did, async () => {
      const namespace = await this.getNamespace()
      let uncertain = false
      for (let round = 1; ; round += 1) {
        const { lastSeqNo } = await this.getDidState(write.did)
        const signature = await sign(write.bytes(namespace, lastSeqNo))
        try {
          return await this.request<LedgerTransaction>(write.request(signature, lastSeqNo))
        } catch (error) {
          if (!(error instanceof LedgerHttpError)) throw error
          uncertain ||= error.afterUncertainAttempt
          if (!isStaleRequest(error) || round === 2) throw withUncertainty(error, uncertain)
          const landed = uncertain && write.isThis ? await this.latestOf(write.did) : undefined
          if (landed && write.isThis?.(landed, signature)) return landed
        }
      }
    })
  }

  /** The DID's latest transaction, or undefined when it cannot be read (the caller signs again instead). */
  private async latestOf(did: string): Promise<LedgerTransaction | undefined> {
    try {
      const { lastSeqNo } = await this.getDidState(did)
      return lastSeqNo > 0 ? await this.getTransaction(lastSeqNo) : undefined
    } catch {
      return undefined
    }
  }

  private async request<T>(options: RequestOptions): Promise<T> {
    const baseUrl = this.options.baseUrl
    if (baseUrl === undefined) throw new LedgerNotConfiguredError()
    const token = options.authorized ? this.tokenOrThrow() : undefined
    const base = options.base ?? LEDGER_PATH
    const url = `${baseUrl}${base}${options.path}`
    let uncertain = false
    let lastProblem = ''
    for (let attempt = 1; attempt <= this.attempts; attempt += 1) {
      if (attempt > 1) await this.sleep(this.backoffMs(attempt - 1))
      const started = process.hrtime.bigint()
      const observe = (outcome: string) =>
        this.options.onRequest?.({
          route: options.route,
          outcome,
          seconds: Number(process.hrtime.bigint() - started) / 1e9,
        })
      let answer: HttpAnswer
      try {
        answer = await httpRequest(url, {
          method: options.method,
          headers: {
            accept: 'application/json',
            ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(options.bytes === undefined ? {} : { 'content-type': 'application/octet-stream' }),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: options.bytes ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
          timeoutMs: this.timeoutMs,
          // A write is never sent twice behind this loop's back: it counts an unanswered attempt as uncertain.
          mayRepeat: options.method !== 'POST',
        })
      } catch (error) {
        observe('network-error')
        // A write that was sent may have been appended although no answer came back.
        if (options.method === 'POST') uncertain = true
        lastProblem = describeNetworkError(error, this.timeoutMs)
        continue
      }
      if (answer.status >= 300 && answer.status < 400) {
        observe(`http-${answer.status}`)
        throw new LedgerUnavailableError(
          `${LEDGER_UNREACHABLE} ${options.method} ${base}${options.path} at ${baseUrl} itself: it redirected (HTTP ${answer.status}), which the agent does not follow; set AGENT_LEDGER_URL to the ledger's own address`,
        )
      }
      const body = parseJson(answer.body)
      const reason = messageOf(body) ?? STATUS_CODES[answer.status] ?? ''
      if (answer.status >= 500) {
        observe('server-error')
        if (options.method === 'POST') uncertain = true
        lastProblem = `HTTP ${answer.status}: ${reason}`
        continue
      }
      if (answer.status >= 400) {
        observe(`http-${answer.status}`)
        throw new LedgerHttpError(
          answer.status,
          `The ledger refused ${options.method} ${base}${options.path} (HTTP ${answer.status}): ${reason}`,
          uncertain,
        )
      }
      observe('ok')
      if (body === undefined)
        throw new LedgerUnavailableError(`${LEDGER_UNREACHABLE} ${options.method} ${base}${options.path} with JSON`)
      return unwrapEnvelope(body) as T
    }
    throw new LedgerUnavailableError(
      `${LEDGER_UNREACHABLE} ${options.method} ${base}${options.path} at ${baseUrl} after ${this.attempts} attempts: ${lastProblem}`,
    )
  }

  /** The agent's event token, which the platform asks for on NYM requests. @throws LedgerNotConfiguredError */
  private tokenOrThrow(): string {
    if (this.options.token) return this.options.token
    throw new LedgerNotConfiguredError(
      `${LEDGER_NOT_CONFIGURED} to write a NYM: the platform asks for the agent's event token (AGENT_EVENT_TOKEN)`,
    )
  }

  /** Exponential backoff with full jitter, never under half the base. */
  private backoffMs(retry: number): number {
    const cap = this.retryBaseMs * 2 ** (retry - 1)
    return Math.max(this.retryBaseMs / 2, Math.floor(cap * Math.random()))
  }
}

/** The ledger's refusal of a request bound to an earlier state of its DID. */
export function isStaleRequest(error: LedgerHttpError): boolean {
  return error.status === 409 && error.message.includes(LEDGER_STALE_REQUEST)
}

/** The refusal, marked as following an unanswered attempt when an earlier round had one. */
function withUncertainty(error: LedgerHttpError, uncertain: boolean): LedgerHttpError {
  return uncertain && !error.afterUncertainAttempt ? new LedgerHttpError(error.status, error.message, true) : error
}

function parseJson(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

function messageOf(body: unknown): string | undefined {
  if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string')
    return (body as { message: string }).message
  return undefined
}

/** The platform's success envelope `{ statusCode, message, data }` carries the answer in `data`. */
function unwrapEnvelope(body: unknown): unknown {
  if (
    body &&
    typeof body === 'object' &&
    'data' in body &&
    typeof (body as { statusCode?: unknown }).statusCode === 'number' &&
    typeof (body as { message?: unknown }).message === 'string'
  )
    return (body as { data: unknown }).data
  return body
}

function describeNetworkError(error: unknown, timeoutMs: number): string {
  if (error instanceof HttpTimeoutError) return `no answer within ${timeoutMs} ms`
  const { code, message } = (error ?? {}) as { code?: string; message?: string }
  return code ?? message ?? String(error)
}
