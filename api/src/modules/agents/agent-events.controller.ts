import { injectable } from 'inversify'
import { Body, HeaderParam, HttpCode, JsonController, Post } from 'routing-controllers'
import { plainToInstance } from 'class-transformer'
import { validate } from 'class-validator'
import { InvalidInputError } from '@idplane/common'
import { ok, type Envelope } from '../../infra/http/envelope'
import { AgentEventsService } from './agent-events.service'
import { AgentEventDto } from './dto/agent-event.dto'

/**
 * Internal: agents post their events here with their event token (DESIGN.md, "Events and webhooks").
 * Hidden from the explorer (paths under /v1/internal). The token is checked before the body is looked at.
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
  ): Promise<Envelope<{ id: string; isDuplicate: boolean }>> {
    const header = /^Bearer (\S+)$/.exec(authorization ?? '')
    const orgId = await this.events.authenticate(header?.[1])
    const event = await toEvent(body)
    const isNew = await this.events.record(orgId, event)
    return ok({ id: event.id, isDuplicate: !isNew }, isNew ? 'Event recorded' : 'Event already recorded')
  }
}

async function toEvent(body: unknown): Promise<AgentEventDto> {
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
      errors.map((error) => ({ field: error.property, message: Object.values(error.constraints ?? {}).join(', ') })),
    )
  }
  return event
}
