import { Type } from 'class-transformer'
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator'
import { PUBLIC_ID, PUBLIC_ID_MESSAGE } from '../../oid4vc/dto/issuer.dto'

export const QUERY_TYPES = ['dcql', 'presentation-exchange'] as const
export const RESPONSE_MODES = ['direct_post', 'direct_post.jwt'] as const

/** What the verifier asks for: a DCQL query (`dcql`) or a DIF Presentation Exchange v2 definition (`definition`). */
export class VerificationQueryDto {
  @IsIn(QUERY_TYPES) type: 'dcql' | 'presentation-exchange'
  @IsOptional() @IsObject() dcql?: Record<string, unknown>
  @IsOptional() @IsObject() definition?: Record<string, unknown>
}

/** Signs the request: the active `verification` x509 certificate (`x5c`, the default) or a DID of the organization. */
export class RequestSignerDto {
  @IsIn(['x5c', 'did']) method: 'x5c' | 'did'
  @IsOptional() @IsString() @MaxLength(2048) did?: string
}

/** `POST|PUT /orgs/:orgId/oid4vp/verification-template[/:templateId]`: a stored presentation request. */
export class VerificationTemplateDto {
  @IsString() @IsNotEmpty() @MaxLength(256) name: string
  @IsOptional() @IsString() @MaxLength(2000) description?: string
  @IsObject() @ValidateNested() @Type(() => VerificationQueryDto) query: VerificationQueryDto
  /** @default 'direct_post.jwt' (an encrypted response) */
  @IsOptional() @IsIn(RESPONSE_MODES) responseMode?: 'direct_post' | 'direct_post.jwt'
  @IsOptional() @IsObject() @ValidateNested() @Type(() => RequestSignerDto) signer?: RequestSignerDto
  /** OpenID4VC High Assurance Interoperability Profile: DCQL, direct_post.jwt, x509_hash. */
  @IsOptional() @IsBoolean() isHaip?: boolean
}

/**
 * `POST /orgs/:orgId/oid4vp/presentation`: an authorization request of one verifier, from a verification template
 * (`templateId`) or inline (`query`, `responseMode`, `signer`, `isHaip`).
 */
export class CreatePresentationRequestDto {
  @Matches(PUBLIC_ID, { message: `verifierId ${PUBLIC_ID_MESSAGE}` }) verifierId: string
  @IsOptional() @IsUUID() templateId?: string
  @IsOptional() @IsObject() @ValidateNested() @Type(() => VerificationQueryDto) query?: VerificationQueryDto
  @IsOptional() @IsIn(RESPONSE_MODES) responseMode?: 'direct_post' | 'direct_post.jwt'
  @IsOptional() @IsObject() @ValidateNested() @Type(() => RequestSignerDto) signer?: RequestSignerDto
  @IsOptional() @IsBoolean() isHaip?: boolean
  /** One minute to one day. @default Credo's 300 seconds */
  @IsOptional() @IsInt() @Min(60) @Max(86400) expiresInSeconds?: number
}

/**
 * `GET /orgs/:orgId/oid4vp/verifier-presentation?verifierId=&state=&id=`: the sessions (one with `id`), each
 * with its state and, once verified, the disclosed claims.
 */
export class ListVerifierPresentationsQuery {
  @IsOptional() @Matches(PUBLIC_ID, { message: `verifierId ${PUBLIC_ID_MESSAGE}` }) verifierId?: string
  @IsOptional() @IsString() @MaxLength(64) state?: string
  @IsOptional() @IsUUID() id?: string
}
