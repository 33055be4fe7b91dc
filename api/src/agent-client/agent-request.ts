import http from 'node:http'
import https from 'node:https'
import {
  ConflictError,
  type FieldError,
  type IdplaneError,
  InvalidInputError,
  type Logger,
  NotFoundError,
  NotImplementedError,
  UpstreamError,
  UpstreamUnavailableError,
} from '@idplane/common'
import { TENANT_HEADER, type AgentEnvelope } from '@idplane/common/agent-contract/admin-api'
import {
  type AgentHttpMethod,
  type AnyAdminOperation,
  type OperationInput,
  type OperationResult,
  operationPath,
} from '@idplane/common/agent-contract/operation'
import { failureDetail } from '@idplane/common/agent-contract/probe'
import { requestOverKeptConnection } from '@idplane/common/net/kept-connection'
import type { AgentCallOutcome, AgentClientMetrics } from './agent-client-metrics'

/** Network errors of a connection the agent closed before answering. */
const BROKEN_CONNECTION = new Set(['ECONNRESET', 'EPIPE'])

/**
 * Connections to agents stay open between calls, through node:http: fetch (undici) cost about three times its CPU
 * per call (docs/benchmarks.md, "The API's calls to agents"). A kept connection is dropped a second before the
 * agent's announced keep-alive timeout (Node's agent reads the Keep-Alive header), as undici did.
 */
const KEEP_ALIVE = { keepAlive: true, scheduling: 'lifo' as const }
const connectionPools = { http: new http.Agent(KEEP_ALIVE), https: new https.Agent(KEEP_ALIVE) }

/** An agent's answer: its status and its body parsed as JSON (undefined when empty or not JSON). */
interface AgentAnswer {
  status: number
  body: unknown
}

/** Longest agent message passed on to our callers (an agent's message names the problem, never a dump). */
const MAX_MESSAGE_LENGTH = 500

/** Where one agent is and how to talk to it. */
export interface AgentTarget {
  orgId: string
  /** The admin API's base URL (the recorded controller endpoint). */
  endpoint: string
  apiKey: string
  /** A base-wallet tenant: every call carries X-Tenant-Id. */
  tenantId?: string
}

export interface AgentRequestOptions {
  timeoutMs: number
  metrics: AgentClientMetrics
  logger: Logger
}

export interface AgentCall {
  /** Names the call in metrics and messages: `createDid`, `listConnections`... */
  operation: string
  method: AgentHttpMethod
  path: string
  body?: unknown
  query?: object
}

/**
 * One declared admin operation (common/agent-contract/operations/) with its timeout, error mapping and metrics: the
 * path from the declaration's template and `input.params`, `input.body` as JSON, `input.query` as the query string.
 * @throws as requestAgent
 */
export function callOperation<O extends AnyAdminOperation>(
  target: AgentTarget,
  operation: O,
  input: OperationInput<O>,
  options: AgentRequestOptions,
): Promise<OperationResult<O>> {
  const { params, body, query } = input as { params?: object; body?: unknown; query?: object }
  return requestAgent<OperationResult<O>>(
    target,
    {
      operation: operation.name,
      method: operation.method,
      path: operationPath(operation, params),
      body: operation.hasBody ? body : undefined,
      query: operation.hasQuery ? query : undefined,
    },
    options,
  )
}

/**
 * One admin call with its timeout, error mapping and metrics; the only place in the API that opens a connection to
 * an agent's admin routes (the `/agent` probe is the contract's).
 * @throws InvalidInputError, NotFoundError, ConflictError with the agent's message when it refuses (4xx)
 * @throws UpstreamError when it cannot be reached, does not answer in time, fails (5xx) or breaks the contract
 */
export async function requestAgent<T>(target: AgentTarget, call: AgentCall, options: AgentRequestOptions): Promise<T> {
  const startedAt = process.hrtime.bigint()
  let outcome: AgentCallOutcome = 'failed'
  try {
    let answer: AgentAnswer
    try {
      answer = await send(target, call, options.timeoutMs, () =>
        options.metrics.repeatedCalls.inc({ operation: call.operation }),
      )
    } catch (error) {
      outcome = isTimeout(error) ? 'timeout' : 'unreachable'
      if (outcome === 'timeout') {
        throw new UpstreamError(`The agent did not answer ${call.operation} within ${options.timeoutMs} ms`, {
          cause: error,
        })
      }
      const detail = failureDetail(error)
      // A refused connection never reached the agent (it is restarting, or its replica is): safe to repeat later.
      if (detail === 'ECONNREFUSED') {
        const message = `The agent could not be reached for ${call.operation} (${detail})`
        throw new UpstreamUnavailableError(message, AGENT_RESTART_RETRY_AFTER_SECONDS, { cause: error })
      }
      // A connection the agent closed without an answer: it went down mid-call (killed, or with its replica) and
      // is being restarted. Down is 503 with Retry-After like a refusal, but it may have acted: the message says so.
      if (BROKEN_CONNECTION.has(detail)) {
        const message = `The agent went away during ${call.operation} (${detail}) and may have acted before it did; check before repeating a call that creates something`
        throw new UpstreamUnavailableError(message, AGENT_RESTART_RETRY_AFTER_SECONDS, { cause: error })
      }
      throw new UpstreamError(`The agent could not be reached for ${call.operation} (${detail})`, { cause: error })
    }
    const { status, body } = answer
    if (status >= 200 && status < 300) {
      if (!isEnvelope(body)) {
        throw new UpstreamError(`The agent answered ${call.operation} without a JSON envelope`)
      }
      outcome = 'success'
      return body.data as T
    }
    const refusal = toAgentError(status, body, call.operation)
    if (status >= 400 && status < 500) {
      outcome = 'rejected'
      // The caller's mistake (an unknown record, a bad invitation) reaches the caller as a 4xx and needs nobody;
      // a refused key (401/403, a 502 for the caller) needs an operator.
      const level = refusal instanceof UpstreamError ? 'warn' : 'info'
      options.logger[level]('Agent refused the call', {
        orgId: target.orgId,
        operation: call.operation,
        status,
        error: refusal.message,
      })
    }
    throw refusal
  } catch (error) {
    if (outcome !== 'success' && outcome !== 'rejected') {
      options.logger.warn('Agent call failed', {
        orgId: target.orgId,
        operation: call.operation,
        outcome,
        error: (error as Error).message,
      })
    }
    throw error
  } finally {
    options.metrics.requestDuration.observe(
      { method: call.method, operation: call.operation, outcome },
      Number(process.hrtime.bigint() - startedAt) / 1e9,
    )
  }
}

/**
 * Our error for an agent's error answer: the input errors it names are the caller's (400, 404, 409 with the agent's
 * message); anything else (401/403: it refused our key; 5xx) is the platform's problem with that agent (502).
 */
export function toAgentError(status: number, body: unknown, operation: string): IdplaneError {
  const { message, fields } = errorDetails(body)
  const text = message ?? `The agent refused ${operation} (HTTP ${status})`
  if (status === 400 || status === 413 || status === 415 || status === 422) return new InvalidInputError(text, fields)
  if (status === 404) return new NotFoundError(text)
  if (status === 409) return new ConflictError(text)
  // The agent lacks the capability (an optional module it runs without): the caller's answer too, not an outage.
  if (status === 501) return new NotImplementedError(text)
  if (status === 401 || status === 403) {
    return new UpstreamError(`The agent refused the platform's credentials for ${operation} (HTTP ${status})`)
  }
  // An agent that is starting (or stopping) answers 503: the caller retries, as with one refusing connections.
  if (status === 503) {
    return new UpstreamUnavailableError(
      `The agent cannot take ${operation} yet (HTTP 503${message ? `: ${message}` : ''})`,
      AGENT_RESTART_RETRY_AFTER_SECONDS,
    )
  }
  return new UpstreamError(`The agent failed ${operation} (HTTP ${status}${message ? `: ${message}` : ''})`)
}

/**
 * One request and its whole answer; the timeout covers both, body included. A kept connection the agent closes as we
 * reuse it is sent once more on a new one (requestOverKeptConnection).
 * @throws the network error (its `code`), or a `TimeoutError` when no whole answer came in time
 */
async function send(
  target: AgentTarget,
  call: AgentCall,
  timeoutMs: number,
  onRepeat: () => void,
): Promise<AgentAnswer> {
  const url = new URL(`${target.endpoint.replace(/\/$/, '')}${call.path}${queryString(call.query)}`)
  const body = call.body === undefined ? undefined : Buffer.from(JSON.stringify(call.body), 'utf8')
  const headers: Record<string, string> = { authorization: `Bearer ${target.apiKey}`, accept: 'application/json' }
  if (body !== undefined) {
    headers['content-type'] = 'application/json'
    headers['content-length'] = String(body.length)
  }
  if (target.tenantId !== undefined) headers[TENANT_HEADER] = target.tenantId
  const answer = await requestOverKeptConnection({
    url,
    method: call.method,
    headers,
    body,
    pool: url.protocol === 'https:' ? connectionPools.https : connectionPools.http,
    timeoutMs,
    timeoutError: () => new DOMException(`No answer within ${timeoutMs} ms`, 'TimeoutError'),
    onRepeat,
  })
  return { status: answer.status, body: parseJson(answer.body.toString('utf8')) }
}

function queryString(query: object | undefined): string {
  if (!query) return ''
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(name, String(value))
  }
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown)
  } catch {
    return undefined
  }
}

function isEnvelope(body: unknown): body is AgentEnvelope<unknown> {
  return typeof body === 'object' && body !== null && 'data' in body
}

function errorDetails(body: unknown): { message?: string; fields: FieldError[] } {
  if (typeof body !== 'object' || body === null) return { fields: [] }
  const { message, errors } = body as { message?: unknown; errors?: unknown }
  const fields = Array.isArray(errors)
    ? errors
        .filter(
          (item): item is FieldError =>
            typeof item === 'object' &&
            item !== null &&
            typeof (item as FieldError).field === 'string' &&
            typeof (item as FieldError).message === 'string',
        )
        .map((item) => ({ field: item.field, message: item.message.slice(0, MAX_MESSAGE_LENGTH) }))
    : []
  return {
    message: typeof message === 'string' && message !== '' ? message.slice(0, MAX_MESSAGE_LENGTH) : undefined,
    fields,
  }
}

/** What a caller is told to wait when an agent refuses connections: about one supervised restart. */
const AGENT_RESTART_RETRY_AFTER_SECONDS = 5

function isTimeout(error: unknown): boolean {
  const detail = failureDetail(error)
  return detail === 'TimeoutError' || detail === 'AbortError'
}
