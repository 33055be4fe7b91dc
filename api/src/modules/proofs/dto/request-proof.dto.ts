import { Type } from 'class-transformer'
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
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

/** AnonCreds predicate conditions (spec: Verification, `condition`). */
export const PREDICATE_CONDITIONS = ['>=', '<=', '>', '<'] as const
export type PredicateCondition = (typeof PREDICATE_CONDITIONS)[number]

/**
 * One element of `proofFormats.indy.attributes` (spec: Verification). Which combinations are allowed (name or
 * names, condition with value) is checked by indy-proof-request.ts, which names the element.
 */
export class IndyProofAttributeDto {
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(256) attributeName?: string

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(125)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(256, { each: true })
  attributeNames?: string[]

  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(500) schemaId?: string
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(500) credDefId?: string
  @IsOptional() @IsIn(PREDICATE_CONDITIONS) condition?: PredicateCondition

  /** AnonCreds compares 32-bit integers: a whole number as a string. */
  @IsOptional()
  @IsString()
  @Matches(/^-?\d{1,10}$/, { message: 'value must be a whole number as a string (for example "18")' })
  value?: string
}

/** `proofFormats.indy` of the connection routes. */
export class IndyAttributesProofDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(125)
  @ValidateNested({ each: true })
  @Type(() => IndyProofAttributeDto)
  attributes: IndyProofAttributeDto[]

  /** `{ to }` or `{ from, to }` (seconds): every credential must be shown not revoked then (checked by indy-proof-request.ts). */
  @IsOptional() @IsObject() non_revoked?: Record<string, unknown>
}

export class IndyAttributesProofFormatsDto {
  /** Optional here so that a PRESENTATIONEXCHANGE request may carry an empty object; required for INDY. */
  @IsOptional() @ValidateNested() @Type(() => IndyAttributesProofDto) indy?: IndyAttributesProofDto
}

/**
 * `proofFormats.indy` of the out-of-band route: the AnonCreds proof request JSON (without the nonce). The maps'
 * entries are checked by indy-proof-request.ts.
 */
export class IndyOobProofDto {
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(256) name?: string
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(64) version?: string
  @IsOptional() @IsObject() requested_attributes?: Record<string, unknown>
  @IsOptional() @IsObject() requested_predicates?: Record<string, unknown>
  @IsOptional() @IsObject() non_revoked?: Record<string, unknown>
}

export class IndyOobProofFormatsDto {
  @IsOptional() @ValidateNested() @Type(() => IndyOobProofDto) indy?: IndyOobProofDto
}

/** The fields every proof request shares (spec: Verification; Versioning 2: v1 and v2 differ in `connectionId`). */
export class ProofRequestFieldsDto {
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

/** The connection routes' fields: `proofFormats.indy.attributes` (required for INDY). */
export class ConnectionProofRequestFieldsDto extends ProofRequestFieldsDto {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => IndyAttributesProofFormatsDto)
  proofFormats?: IndyAttributesProofFormatsDto
}

/** `POST /v1/orgs/:orgId/proofs`. */
export class RequestProofDto extends ConnectionProofRequestFieldsDto {
  @IsUUID()
  connectionId: string
}

/** `POST /v2/orgs/:orgId/proofs`: one request per connection (at most PROOF_REQ_CONN_LIMIT). */
export class RequestProofV2Dto extends ConnectionProofRequestFieldsDto {
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
  /** `proofFormats.indy` holds the AnonCreds request (`requested_attributes`, `requested_predicates`). */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => IndyOobProofFormatsDto)
  proofFormats?: IndyOobProofFormatsDto

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
