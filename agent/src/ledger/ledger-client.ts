import { LEDGER_PATH, type LedgerTransactionType } from '@idplane/common/agent-contract/ledger'

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

interface RequestOptions {
  route: string
  path: string
  method: 'GET' | 'POST'
  body?: unknown
  authorized?: boolean
}

/**
 * A small client of the platform ledger's HTTP routes (docs/agent.md, Ledger). Network errors, timeouts and 5xx
 * answers are retried with exponential backoff and jitter; 4xx answers are final and thrown as LedgerHttpError
 * with the platform's message. Answers in the platform's envelope (`{ statusCode, message, data }`) are unwrapped.
 * The namespace is read from `GET /v1/ledger` at first use and kept (a failed read is tried again next time).
 */
export class LedgerClient {
  private readonly timeoutMs: number
  private readonly attempts: number
  private readonly retryBaseMs: number
  private readonly sleep: (ms: number) => Promise<void>
  private info: Promise<LedgerInfo> | undefined

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

  public async getDid(did: string): Promise<LedgerDidAnswer> {
    return this.request({ route: 'did', path: `/dids/${encodeURIComponent(did)}`, method: 'GET' })
  }

  /** Appends an ATTRIB, SCHEMA or CRED_DEF signed by its author. */
  public async writeTransaction(body: {
    type: LedgerTransactionType
    authorDid: string
    payload: unknown
    signature: string
  }): Promise<LedgerTransaction> {
    return this.request({ route: 'transactions', path: '/transactions', method: 'POST', body })
  }

  /** Asks the platform (its trustee) to write the NYM of a DID whose key this agent holds. */
  public async writeNym(body: { did: string; verkey: string; signature: string }): Promise<LedgerTransaction> {
    return this.request({ route: 'nyms', path: '/nyms', method: 'POST', body, authorized: true })
  }

  private async request<T>(options: RequestOptions): Promise<T> {
    const baseUrl = this.options.baseUrl
    if (baseUrl === undefined) throw new LedgerNotConfiguredError()
    if (options.authorized && !this.options.token)
      throw new LedgerNotConfiguredError(
        `${LEDGER_NOT_CONFIGURED} to write a NYM: the platform asks for the agent's event token (AGENT_EVENT_TOKEN)`,
      )
    const url = `${baseUrl}${LEDGER_PATH}${options.path}`
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
      let response: Response
      let text: string
      try {
        response = await fetch(url, {
          method: options.method,
          headers: {
            accept: 'application/json',
            ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(options.authorized ? { authorization: `Bearer ${this.options.token}` } : {}),
          },
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
          signal: AbortSignal.timeout(this.timeoutMs),
        })
        text = await response.text()
      } catch (error) {
        observe('network-error')
        // A write that was sent may have been appended although no answer came back.
        if (options.method === 'POST') uncertain = true
        lastProblem = describeNetworkError(error, this.timeoutMs)
        continue
      }
      const body = parseJson(text)
      if (response.status >= 500) {
        observe('server-error')
        if (options.method === 'POST') uncertain = true
        lastProblem = `HTTP ${response.status}: ${messageOf(body) ?? response.statusText}`
        continue
      }
      if (response.status >= 400) {
        observe(`http-${response.status}`)
        throw new LedgerHttpError(
          response.status,
          `The ledger refused ${options.method} ${LEDGER_PATH}${options.path} (HTTP ${response.status}): ${
            messageOf(body) ?? response.statusText
          }`,
          uncertain,
        )
      }
      observe('ok')
      if (body === undefined)
        throw new LedgerUnavailableError(
          `${LEDGER_UNREACHABLE} ${options.method} ${LEDGER_PATH}${options.path} with JSON`,
        )
      return unwrapEnvelope(body) as T
    }
    throw new LedgerUnavailableError(
      `${LEDGER_UNREACHABLE} ${options.method} ${LEDGER_PATH}${options.path} at ${baseUrl} after ${this.attempts} attempts: ${lastProblem}`,
    )
  }

  /** Exponential backoff with full jitter, never under half the base. */
  private backoffMs(retry: number): number {
    const cap = this.retryBaseMs * 2 ** (retry - 1)
    return Math.max(this.retryBaseMs / 2, Math.floor(cap * Math.random()))
  }
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
  // Duck-typed: fetch's errors may come from another realm (undici's), where instanceof Error fails.
  const { name, message, cause } = (error ?? {}) as { name?: string; message?: string; cause?: unknown }
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs} ms`
  const { code, message: causeMessage } = (cause ?? {}) as { code?: string; message?: string }
  return code ?? causeMessage ?? message ?? String(error)
}
