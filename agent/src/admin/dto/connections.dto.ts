import { Type } from 'class-transformer'
import { IsArray, IsBoolean, IsInt, IsObject, IsOptional, IsString, IsUrl, Min } from 'class-validator'

/** Every field of the spec's `POST /orgs/:orgId/connections`; all optional. */
export class CreateInvitationDto {
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
  @IsOptional() @IsString() recipientKey?: string
  @IsOptional() @IsString() invitationDid?: string
  @IsOptional() @IsObject() routing?: Record<string, unknown>
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

export class ReceiveInvitationUrlDto extends ReceiveOptionsDto {
  @IsUrl({ require_tld: false, protocols: ['http', 'https', 'didcomm'] }) invitationUrl: string
}

export class ReceiveInvitationDto extends ReceiveOptionsDto {
  @IsObject() invitation: Record<string, unknown>
}

export class ConnectionQueryDto {
  @IsOptional() @IsString() outOfBandId?: string
  @IsOptional() @IsString() alias?: string
  @IsOptional() @IsString() myDid?: string
  @IsOptional() @IsString() theirDid?: string
  @IsOptional() @IsString() theirLabel?: string
}
