import { injectable } from 'inversify'
import { Body, HeaderParam, HttpCode, JsonController, Post } from 'routing-controllers'
import { plainToInstance } from 'class-transformer'
import { validate } from 'class-validator'
import { InvalidInputError } from '@idplane/common'
import { ok, type Envelope } from '../../infra/http/envelope'
import { AgentEventsService } from './agent-events.service'
import { AgentEventDto } from './dto/agent-event.dto'

/** Most events one request may carry (the agent sends at most 20). */
export const MAX_EVENTS_PER_REQUEST = 100

interface EventResult {
  id: string
  isDuplicate: boolean
}

/**
 * Internal: agents post their events here with their event token (DESIGN.md, "Events and webhooks"): one event
 * object, or `{ events: [...] }` with up to 100 (docs/agent.md, Events). Hidden from the explorer (paths under
 * /v1/internal). The token is checked before the body is looked at; a batch is checked whole before any event of it
 * is stored, so a 400 stores nothing.
 */
@injectable()
@JsonController('/v1/internal/agent-events')
export class AgentEventsController {
  public constructor(private readonly events: AgentEventsService) {}

  @Post()
  @HttpCode(200)
  async receive(
    @HeaderParam('authorization') authorization: string,
    @Body({ validate: false }) body: unknown,
  ): Promise<Envelope<EventResult | { results: EventResult[] }>> {
    const header = /^Bearer (\S+)$/.exec(authorization ?? '')
    const orgId = await this.events.authenticate(header?.[1])
    if (isBatch(body)) {
      const events = await toEvents(body.events)
      const results: EventResult[] = []
      for (const event of events) {
        results.push({ id: event.id, isDuplicate: !(await this.events.record(orgId, event)) })
      }
      return ok({ results }, `${results.filter((result) => !result.isDuplicate).length} events recorded`)
    }
    const event = await toEvent(body)
    const isNew = await this.events.record(orgId, event)
    return ok({ id: event.id, isDuplicate: !isNew }, isNew ? 'Event recorded' : 'Event already recorded')
  }
}

function isBatch(body: unknown): body is { events: unknown } {
  return body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).join() === 'events'
}

async function toEvents(events: unknown): Promise<AgentEventDto[]> {
  if (!Array.isArray(events) || events.length === 0 || events.length > MAX_EVENTS_PER_REQUEST) {
    throw new InvalidInputError(`events must be an array of 1 to ${MAX_EVENTS_PER_REQUEST} events`, [
      { field: 'events', message: `must hold 1 to ${MAX_EVENTS_PER_REQUEST} events` },
    ])
  }
  const parsed: AgentEventDto[] = []
  for (const [index, event] of events.entries()) parsed.push(await toEvent(event, `events[${index}].`))
  return parsed
}

async function toEvent(body: unknown, fieldPrefix = ''): Promise<AgentEventDto> {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new InvalidInputError('The event must be a JSON object')
  const event = plainToInstance(AgentEventDto, body)
  const errors = await validate(event, {
    whitelist: true,
    forbidNonWhitelisted: true,
    validationError: { target: false, value: false },
  })
  if (errors.length > 0) {
    throw new InvalidInputError(
      'Invalid agent event',
      errors.map((error) => ({
        field: `${fieldPrefix}${error.property}`,
        message: Object.values(error.constraints ?? {}).join(', '),
      })),
    )
  }
  return event
}
