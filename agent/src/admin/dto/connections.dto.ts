import { Type } from 'class-transformer'
import {
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Min,
  ValidateNested,
} from 'class-validator'
import type {
  ConnectionQuery,
  CreateInvitationRequest,
  InvitationRouting,
  ReceiveInvitationRequest,
  ReceiveInvitationUrlRequest,
} from '@idplane/common/agent-contract/admin-api'

/**
 * The DIDComm service an invitation names: where to send, to which key of this wallet, through which mediator
 * keys (Credo's `DidCommRouting`, keys as strings). Keys are base58 Ed25519 public keys or did:key DIDs.
 */
export class InvitationRoutingDto implements InvitationRouting {
  @IsArray()
  @ArrayNotEmpty()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https', 'ws', 'wss'] }, { each: true })
  endpoints: string[]
  @IsString() @IsNotEmpty() recipientKey: string
  @IsOptional() @IsArray() @IsString({ each: true }) routingKeys?: string[]
}

/**
 * Every field of the spec's `POST /orgs/:orgId/connections`; all optional. The formats of `recipientKey`,
 * `routing`, `messages` and `appendedAttachments` are in docs/agent.md; oob-invitation-options.ts maps them.
 */
export class CreateInvitationDto implements CreateInvitationRequest {
  @IsOptional() @IsString() label?: string
  @IsOptional() @IsString() alias?: string
  @IsOptional() @IsString() imageUrl?: string
  @IsOptional() @IsString() goalCode?: string
  @IsOptional() @IsString() goal?: string
  @IsOptional() @IsBoolean() handshake?: boolean
  @IsOptional() @IsArray() @IsString({ each: true }) handshakeProtocols?: string[]
  @IsOptional() @IsBoolean() multiUseInvitation?: boolean
  @IsOptional() @IsBoolean() autoAcceptConnection?: boolean
  @IsOptional() @IsBoolean() IsReuseConnection?: boolean
  @IsOptional() @IsString() @IsNotEmpty() recipientKey?: string
  @IsOptional() @IsString() @IsNotEmpty() invitationDid?: string
  @IsOptional() @IsObject() @ValidateNested() @Type(() => InvitationRoutingDto) routing?: InvitationRoutingDto
  @IsOptional() @IsArray() @IsObject({ each: true }) appendedAttachments?: Record<string, unknown>[]
  @IsOptional() @IsArray() @IsObject({ each: true }) messages?: Record<string, unknown>[]
}

class ReceiveOptionsDto {
  @IsOptional() @IsString() alias?: string
  @IsOptional() @IsString() label?: string
  @IsOptional() @IsString() imageUrl?: string
  @IsOptional() @IsString() ourDid?: string
  @IsOptional() @IsBoolean() autoAcceptConnection?: boolean
  @IsOptional() @IsBoolean() autoAcceptInvitation?: boolean
  @IsOptional() @IsBoolean() reuseConnection?: boolean
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) acceptInvitationTimeoutMs?: number
}

export class ReceiveInvitationUrlDto extends ReceiveOptionsDto implements ReceiveInvitationUrlRequest {
  // An invitation carrying an AnonCreds offer (its key correctness proof) is tens of kilobytes of URL.
  @IsUrl({ require_tld: false, protocols: ['http', 'https', 'didcomm'], max_allowed_length: 262144 })
  invitationUrl: string
}

export class ReceiveInvitationDto extends ReceiveOptionsDto implements ReceiveInvitationRequest {
  @IsObject() invitation: Record<string, unknown>
}

export class ConnectionQueryDto implements ConnectionQuery {
  @IsOptional() @IsString() outOfBandId?: string
  @IsOptional() @IsString() alias?: string
  @IsOptional() @IsString() myDid?: string
  @IsOptional() @IsString() theirDid?: string
  @IsOptional() @IsString() theirLabel?: string
}
