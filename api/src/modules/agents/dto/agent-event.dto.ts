import { IsIn, IsISO8601, IsObject, IsOptional, IsString, Length, ValidateBy } from 'class-validator'
import { AGENT_EVENT_KINDS, type AgentEventKind } from '../agent-event.entity'

/** The body an agent posts to /v1/internal/agent-events (agent/src/events/event-mapper.ts, AgentEventBody). */
export class AgentEventDto {
  @IsString()
  @Length(1, 200)
  id!: string

  @IsIn(AGENT_EVENT_KINDS)
  kind!: AgentEventKind

  @IsString()
  @Length(1, 256)
  agentLabel!: string

  @IsOptional()
  @IsString()
  @Length(1, 200)
  tenantId?: string

  @IsISO8601({ strict: true })
  @IsInstant()
  occurredAt!: string

  @IsObject()
  record!: Record<string, unknown>
}

/**
 * ISO 8601 also names weeks ("2026-W01") and ordinal days ("2026-001"), and years past JavaScript's range; the
 * column needs an instant, so the string must parse to one (issue 8: such dates reached the insert as a 500),
 * on a day its month has (Date.parse turns 30 February into 2 March).
 */
function IsInstant(): PropertyDecorator {
  return ValidateBy({
    name: 'isInstant',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && isInstant(value),
      defaultMessage: () => '$property must be a date and time, e.g. 2026-11-24T05:00:00Z',
    },
  })
}

function isInstant(value: string): boolean {
  if (Number.isNaN(Date.parse(value))) return false
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(value)
  if (!day) return false
  const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])]
  return date >= 1 && date <= new Date(Date.UTC(year, month, 0)).getUTCDate()
}
