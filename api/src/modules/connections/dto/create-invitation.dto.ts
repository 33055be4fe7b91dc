import { Type } from 'class-transformer'
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  MaxLength,
  ValidateNested,
} from 'class-validator'
import type { CreateInvitationRequest, InvitationRouting } from '@idplane/common/agent-contract/admin-api'

/** Bounds of invitation fields; the agent checks the formats (docs/agent.md, "Invitation fields"). */
const TEXT = 500
const KEY = 2000
const LIST = 20

export class InvitationRoutingDto implements InvitationRouting {
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(LIST)
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https', 'ws', 'wss'] }, { each: true })
  @MaxLength(KEY, { each: true })
  endpoints: string[]

  @IsString()
  @IsNotEmpty()
  @MaxLength(KEY)
  recipientKey: string

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(LIST)
  @IsString({ each: true })
  @MaxLength(KEY, { each: true })
  routingKeys?: string[]
}

/**
 * Body of `POST /orgs/:orgId/connections`: every field of the spec, all optional (an empty or omitted body makes a
 * default invitation), plus the extension `isShortenUrl`.
 */
export class CreateConnectionInvitationDto {
  @IsOptional() @IsString() @MaxLength(TEXT) label?: string
  @IsOptional() @IsString() @MaxLength(TEXT) alias?: string
  @IsOptional() @IsString() @MaxLength(KEY) imageUrl?: string
  @IsOptional() @IsString() @MaxLength(TEXT) goalCode?: string
  @IsOptional() @IsString() @MaxLength(TEXT) goal?: string
  /** @default true */
  @IsOptional() @IsBoolean() handshake?: boolean
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(LIST)
  @IsString({ each: true })
  @MaxLength(TEXT, { each: true })
  handshakeProtocols?: string[]
  /** @default false */
  @IsOptional() @IsBoolean() multiUseInvitation?: boolean
  /**
   * Omitted: the agent accepts connection requests for this invitation (as the reference platform's agents do);
   * `false`: a request waits for `POST /orgs/:orgId/connections/:connectionId/accept`.
   */
  @IsOptional() @IsBoolean() autoAcceptConnection?: boolean
  @IsOptional() @IsBoolean() IsReuseConnection?: boolean
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(KEY) recipientKey?: string
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(KEY) invitationDid?: string
  @IsOptional() @IsObject() @ValidateNested() @Type(() => InvitationRoutingDto) routing?: InvitationRoutingDto
  @IsOptional() @IsArray() @ArrayMaxSize(LIST) @IsObject({ each: true }) appendedAttachments?: Record<string, unknown>[]
  @IsOptional() @IsArray() @ArrayMaxSize(LIST) @IsObject({ each: true }) messages?: Record<string, unknown>[]
  /** Extension: answer a short platform link (`/s/<code>`) as `invitationUrl`. @default false */
  @IsOptional() @IsBoolean() isShortenUrl?: boolean
}

/** The agent's request for a platform body: the platform's defaults applied, the extension fields removed. */
export function toAgentInvitation(body: CreateConnectionInvitationDto): CreateInvitationRequest {
  const { isShortenUrl: _isShortenUrl, routing, ...fields } = body
  return {
    ...fields,
    ...(routing ? { routing: { ...routing } } : {}),
    autoAcceptConnection: body.autoAcceptConnection ?? true,
  }
}
