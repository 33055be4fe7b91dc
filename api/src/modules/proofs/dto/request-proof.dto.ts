import { Type } from 'class-transformer'
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
} from 'class-validator'
import { PresentationDefinitionDto } from './presentation-definition.dto'

export type RequestType = 'INDY' | 'PRESENTATIONEXCHANGE'
export const REQUEST_TYPES: readonly RequestType[] = ['INDY', 'PRESENTATIONEXCHANGE']
export const AUTO_ACCEPT_PROOF = ['always', 'contentApproved', 'never'] as const

/** Query of the proof-request routes: `requestType`, `INDY` when absent (spec: Verification). */
export class RequestTypeQuery {
  @IsOptional()
  @IsIn(REQUEST_TYPES)
  // Spelled out, not the alias: a query property's design type must be String (the transpiler emits Object for
  // an alias), or routing-controllers parses the value as JSON.
  requestType: 'INDY' | 'PRESENTATIONEXCHANGE' = 'INDY'
}

/** A bound far above PROOF_REQ_CONN_LIMIT's range, so a huge array is refused before the service counts it. */
export const MAX_CONNECTION_IDS = 1000
/** Likewise for the OOB e-mail list and OOB_BATCH_SIZE. */
export const MAX_EMAILS = 10_000

/** The fields every proof request shares (spec: Verification; Versioning 2: v1 and v2 differ in `connectionId`). */
export class ProofRequestFieldsDto {
  /** Required for `INDY`; AnonCreds is not available yet (501), but a missing one is still the spec's 400. */
  @IsOptional()
  @IsObject()
  proofFormats?: Record<string, unknown>

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PresentationDefinitionDto)
  presentationDefinition?: PresentationDefinitionDto

  @IsOptional() @IsString() @MaxLength(1000) comment?: string
  @IsOptional() @IsString() @MaxLength(200) goalCode?: string
  @IsOptional() @IsString() @MaxLength(200) parentThreadId?: string
  @IsOptional() @IsString() @MaxLength(10) protocolVersion?: string
  @IsOptional() @IsIn(AUTO_ACCEPT_PROOF) autoAcceptProof?: (typeof AUTO_ACCEPT_PROOF)[number]
  @IsOptional() @IsBoolean() willConfirm?: boolean
}

/** `POST /v1/orgs/:orgId/proofs`. */
export class RequestProofDto extends ProofRequestFieldsDto {
  @IsUUID()
  connectionId: string
}

/** `POST /v2/orgs/:orgId/proofs`: one request per connection (at most PROOF_REQ_CONN_LIMIT). */
export class RequestProofV2Dto extends ProofRequestFieldsDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CONNECTION_IDS)
  @IsUUID(undefined, { each: true })
  connectionId: string[]
}

/**
 * `POST /v1/orgs/:orgId/proofs/oob`. Decision (docs/decisions.md, "Proofs"): the spec's unnamed fields are
 * `isShortenUrl` (default true), `emailId` (addresses, at most OOB_BATCH_SIZE), `reuseConnection` (default false)
 * and `label`.
 */
export class OobProofRequestDto extends ProofRequestFieldsDto {
  @IsOptional() @IsBoolean() isShortenUrl?: boolean

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_EMAILS)
  @IsEmail(undefined, { each: true })
  @MaxLength(320, { each: true })
  emailId?: string[]

  @IsOptional() @IsBoolean() reuseConnection?: boolean
  @IsOptional() @IsString() @MaxLength(200) label?: string
}
