import type { FieldError } from '../errors'

/**
 * The events an agent posts to the platform (DESIGN.md, "Events and webhooks"; docs/agent.md, Events): one event
 * object, or `{ "events": [...] }` with up to MAX_EVENTS_PER_REQUEST, to AGENT_EVENTS_PATH with the agent's event
 * token as a bearer token. The agent writes them (agent/src/events/), the API checks them here.
 */
export const AGENT_EVENTS_PATH = '/v1/internal/agent-events'

/**
 * Where the cloud wallets' base agent posts its events (the same envelope), with the base wallet's API key as its
 * event token: it belongs to no organization, and its tenants' events update the wallets' holder records.
 */
export const BASE_WALLET_EVENTS_PATH = '/v1/internal/wallet-agent-events'

/**
 * Appended to an agent's event URL (either path above): the agent POSTs there once it answers GET /agent, with the
 * same bearer token as its events and an empty JSON object, so the platform confirms GET /agent at once instead of
 * at its next poll (the spec's polling stays the fallback). `/v1/internal/agent-events/ready` for an organization.
 */
export const AGENT_READY_SUFFIX = '/ready'

/** Where an agent announces its readiness, given its event URL. */
export function agentReadyUrl(eventUrl: string): string {
  return `${eventUrl.endsWith('/') ? eventUrl.slice(0, -1) : eventUrl}${AGENT_READY_SUFFIX}`
}

export const AGENT_EVENT_KINDS = [
  'connection',
  'credential',
  'proof',
  'basic-message',
  'question-answer',
  /** OpenID4VCI: an issuance session (one per credential offer), Credo's record less its codes. */
  'openid4vc-issuance',
  /** OpenID4VP: a verification session (one per presentation request), Credo's record. */
  'openid4vc-verification',
] as const
export type AgentEventKind = (typeof AGENT_EVENT_KINDS)[number]

/** Most events one request may carry (the agent sends at most 20). */
export const MAX_EVENTS_PER_REQUEST = 100

/** Longest event id, tenant id and agent label the platform stores (its column widths). */
export const AGENT_EVENT_LIMITS = { id: 200, tenantId: 200, agentLabel: 256 } as const

/** The fields of an event besides the record. */
export interface AgentEventHeader {
  /** Unique per agent; the platform applies an id once (delivery is at least once). */
  id: string
  kind: AgentEventKind
  agentLabel: string
  /** The base-wallet tenant the record belongs to; absent for the agent's own wallet. */
  tenantId?: string
  /** ISO 8601 instant. */
  occurredAt: string
}

/** One event: the header and the Credo record's JSON as stored by the agent. */
export interface AgentEvent extends AgentEventHeader {
  record: Record<string, unknown>
}

export interface AgentEventBatch {
  events: AgentEvent[]
}

export type AgentEventParse = { ok: true; events: AgentEvent[]; isBatch: boolean } | { ok: false; errors: FieldError[] }

const EVENT_KEYS = new Set(['id', 'kind', 'agentLabel', 'tenantId', 'occurredAt', 'record'])
/** Calendar date, time and zone as JavaScript's toISOString writes them (fractions and offsets allowed). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

/**
 * Checks a request body: one event or a batch. A batch is checked whole, so a caller can refuse it before storing
 * any of its events. Field names of a batch's events are prefixed `events[<index>].`. The events returned are
 * fresh objects holding only the contract's fields.
 */
export function parseAgentEventBody(body: unknown): AgentEventParse {
  if (isPlainObject(body) && Object.keys(body).join() === 'events') {
    const events = body.events
    if (!Array.isArray(events) || events.length === 0 || events.length > MAX_EVENTS_PER_REQUEST) {
      return { ok: false, errors: [{ field: 'events', message: `must hold 1 to ${MAX_EVENTS_PER_REQUEST} events` }] }
    }
    const parsed: AgentEvent[] = []
    const errors: FieldError[] = []
    events.forEach((item: unknown, index) => {
      const result = parseAgentEvent(item, `events[${index}].`)
      if (result.ok) parsed.push(result.event)
      else errors.push(...result.errors)
    })
    return errors.length > 0 ? { ok: false, errors } : { ok: true, events: parsed, isBatch: true }
  }
  const result = parseAgentEvent(body)
  return result.ok ? { ok: true, events: [result.event], isBatch: false } : result
}

/** Checks one event; `fieldPrefix` goes before each field name in the errors. */
export function parseAgentEvent(
  value: unknown,
  fieldPrefix = '',
): { ok: true; event: AgentEvent } | { ok: false; errors: FieldError[] } {
  if (!isPlainObject(value))
    return {
      ok: false,
      errors: [{ field: fieldPrefix.replace(/\.$/, '') || 'body', message: 'must be a JSON object' }],
    }
  const errors: FieldError[] = []
  const problem = (field: string, message: string) => errors.push({ field: `${fieldPrefix}${field}`, message })
  for (const key of Object.keys(value)) if (!EVENT_KEYS.has(key)) problem(key, 'is not allowed')
  const { id, kind, agentLabel, tenantId, occurredAt, record } = value
  if (!isText(id, AGENT_EVENT_LIMITS.id)) problem('id', `must be a string of 1 to ${AGENT_EVENT_LIMITS.id} characters`)
  if (!(AGENT_EVENT_KINDS as readonly unknown[]).includes(kind)) {
    problem('kind', `must be one of ${AGENT_EVENT_KINDS.join(', ')}`)
  }
  if (!isText(agentLabel, AGENT_EVENT_LIMITS.agentLabel)) {
    problem('agentLabel', `must be a string of 1 to ${AGENT_EVENT_LIMITS.agentLabel} characters`)
  }
  if (tenantId !== undefined && !isText(tenantId, AGENT_EVENT_LIMITS.tenantId)) {
    problem('tenantId', `must be a string of 1 to ${AGENT_EVENT_LIMITS.tenantId} characters`)
  }
  if (!isInstant(occurredAt)) problem('occurredAt', 'must be an ISO 8601 date and time of a real instant')
  if (!isPlainObject(record)) problem('record', 'must be a JSON object')
  if (errors.length > 0) return { ok: false, errors }
  return {
    ok: true,
    event: {
      id: id as string,
      kind: kind as AgentEventKind,
      agentLabel: agentLabel as string,
      ...(tenantId === undefined ? {} : { tenantId: tenantId as string }),
      occurredAt: occurredAt as string,
      record: record as Record<string, unknown>,
    },
  }
}

/**
 * The event body as JSON text: the header's fields, then `record` holding the record's JSON text exactly as
 * stored (spliced in, not parsed and serialized again).
 */
export function eventBody(header: AgentEventHeader, recordJson: string): string {
  const head = JSON.stringify(header)
  return `${head.slice(0, -1)},"record":${recordJson}}`
}

/** A batch request's body from event bodies written by eventBody. */
export function batchBody(eventBodies: readonly string[]): string {
  return `{"events":[${eventBodies.join(',')}]}`
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isText(value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= maxLength
}

/** An ISO 8601 instant whose fields are in range (Date.parse would roll 2026-02-31 over to March). */
function isInstant(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_INSTANT.test(value)) return false
  const time = Date.parse(value)
  if (Number.isNaN(time)) return false
  const [year, month, day] = value.slice(0, 10).split('-').map(Number)
  const [hour, minute] = value.slice(11, 16).split(':').map(Number)
  const second = value[16] === ':' ? Number(value.slice(17, 19)) : 0
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day && hour < 24 && minute < 60 && second < 60
}
