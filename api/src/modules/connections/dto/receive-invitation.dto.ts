import { IsBoolean, IsInt, IsObject, IsOptional, IsString, IsUrl, Max, MaxLength, Min } from 'class-validator'
import type { ReceiveInvitationOptions } from '@idplane/common/agent-contract/admin-api'

/** Longest wait for the invitation to be accepted that a caller may ask for (ten minutes). */
export const MAX_ACCEPT_INVITATION_TIMEOUT_MS = 600_000
/** Invitation URLs carry the invitation base64url-encoded; attachments make them long. */
export const MAX_INVITATION_URL_LENGTH = 65_536

/**
 * The options of both receive routes; the names of the spec's unnamed reuse and timeout fields are those of the
 * cloud-wallet `POST /receive-invitation-url` (`reuseConnection`, `acceptInvitationTimeoutMs`).
 */
export class ReceiveOptionsDto {
  @IsOptional() @IsString() @MaxLength(500) alias?: string
  @IsOptional() @IsString() @MaxLength(500) label?: string
  @IsOptional() @IsString() @MaxLength(2000) imageUrl?: string
  @IsOptional() @IsString() @MaxLength(2000) ourDid?: string
  /** Omitted: true (the agent completes the handshake); `false` leaves it waiting (docs/decisions.md). */
  @IsOptional() @IsBoolean() autoAcceptConnection?: boolean
  /** Omitted: true (the agent answers the invitation at once); `false` only stores it (docs/decisions.md). */
  @IsOptional() @IsBoolean() autoAcceptInvitation?: boolean
  /** Reuse an existing connection to the same inviter instead of making a new one. @default false */
  @IsOptional() @IsBoolean() reuseConnection?: boolean
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ACCEPT_INVITATION_TIMEOUT_MS)
  acceptInvitationTimeoutMs?: number
}

/** Body of `POST /orgs/:orgId/receive-invitation-url`. */
export class ReceiveInvitationUrlDto extends ReceiveOptionsDto {
  /** An out-of-band invitation URL, a legacy `c_i` URL, or a short link that answers the invitation JSON. */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https', 'didcomm'] })
  @MaxLength(MAX_INVITATION_URL_LENGTH)
  invitationUrl: string
}

/** Body of `POST /orgs/:orgId/receive-invitation`. */
export class ReceiveInvitationDto extends ReceiveOptionsDto {
  /** The out-of-band invitation message (`@type`, `@id`, `services`, ...). */
  @IsObject()
  invitation: Record<string, unknown>
}

/** The agent's options for a body, with the platform's defaults. */
export function toAgentReceiveOptions(body: ReceiveOptionsDto): ReceiveInvitationOptions {
  return {
    alias: body.alias,
    label: body.label,
    imageUrl: body.imageUrl,
    ourDid: body.ourDid,
    autoAcceptConnection: body.autoAcceptConnection ?? true,
    autoAcceptInvitation: body.autoAcceptInvitation ?? true,
    reuseConnection: body.reuseConnection ?? false,
    acceptInvitationTimeoutMs: body.acceptInvitationTimeoutMs,
  }
}
