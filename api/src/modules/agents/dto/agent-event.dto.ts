import { IsIn, IsISO8601, IsObject, IsOptional, IsString, Length } from 'class-validator'
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

  @IsISO8601()
  occurredAt!: string

  @IsObject()
  record!: Record<string, unknown>
}
