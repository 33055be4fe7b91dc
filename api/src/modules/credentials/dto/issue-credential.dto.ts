import { Type } from 'class-transformer'
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
} from 'class-validator'
import { STATUS_PURPOSES, type StatusPurpose } from '@idplane/common/bitstring-status-list'

export const AUTO_ACCEPT_VALUES = ['always', 'contentApproved', 'never'] as const
export type AutoAcceptValue = (typeof AUTO_ACCEPT_VALUES)[number]

/** Signature suites the agent signs JSON-LD credentials with. */
export const JSONLD_PROOF_TYPES = ['Ed25519Signature2018', 'Ed25519Signature2020'] as const

/** A hard bound on entries per request (OOB_BATCH_SIZE at most), before the limits the service applies. */
export const MAX_ENTRIES_PER_REQUEST = 10_000

/** An INDY attribute (spec: `attributes`, each `name`, `value`, `isRequired`). */
export class CredentialAttributeDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  name: string

  @IsString()
  @MaxLength(10_000)
  value: string

  @IsOptional()
  @IsBoolean()
  isRequired?: boolean
}

/** JSON-LD signing options (spec: `options` must include `proofType` and `proofPurpose`). */
export class JsonLdOptionsDto {
  @IsIn(JSONLD_PROOF_TYPES)
  proofType: string

  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  proofPurpose: string
}

/** Asks for a `credentialStatus` (W3C Bitstring Status List) in a JSON-LD credential (issue 25 item 4). */
export class CredentialStatusOptionDto {
  /** `revocation` (revoke) or `suspension` (suspend and reinstate): one entry per credential. */
  @IsIn(STATUS_PURPOSES)
  statusPurpose: StatusPurpose
}

/** The credential of an entry: `attributes` for INDY, `credential` and `options` for JSONLD (checked per type). */
export class CredentialContentDto {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => CredentialAttributeDto)
  attributes?: CredentialAttributeDto[]

  @IsOptional()
  @IsObject()
  credential?: Record<string, unknown>

  @IsOptional()
  @ValidateNested()
  @Type(() => JsonLdOptionsDto)
  options?: JsonLdOptionsDto

  /**
   * JSONLD only: issue with a BitstringStatusListEntry of this purpose. Only when asked: stock Credo 0.6.3 holders
   * refuse a JSON-LD credential that carries a status.
   */
  @IsOptional()
  @ValidateNested()
  @Type(() => CredentialStatusOptionDto)
  credentialStatus?: CredentialStatusOptionDto
}

/** One element of `credentialData`. */
export class CredentialDataDto extends CredentialContentDto {
  @IsUUID()
  connectionId: string
}

/** Fields shared by the three issuance bodies. */
export class IssuanceCommonDto {
  /** Required for INDY (spec: Errors 1). */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  credentialDefinitionId?: string

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  comment?: string

  /** Issue Credential protocol version; JSON-LD credentials exist only in v2. */
  @IsOptional()
  @IsIn(['v1', 'v2'])
  protocolVersion?: string

  @IsOptional()
  @IsBoolean()
  reuseConnection?: boolean
}

/** Body of `POST /orgs/:orgId/credentials/offer`. */
export class OfferCredentialDto extends IssuanceCommonDto {
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_ENTRIES_PER_REQUEST)
  @ValidateNested({ each: true })
  @Type(() => CredentialDataDto)
  credentialData: CredentialDataDto[]

  @IsOptional()
  @IsIn(AUTO_ACCEPT_VALUES)
  autoAcceptCredential?: AutoAcceptValue

  @IsOptional()
  @IsString()
  @MaxLength(200)
  goalCode?: string

  @IsOptional()
  @IsString()
  @MaxLength(200)
  parentThreadId?: string

  @IsOptional()
  @IsString()
  @MaxLength(200)
  label?: string

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  imageUrl?: string

  @IsOptional()
  @IsBoolean()
  willConfirm?: boolean

  @IsOptional()
  @IsBoolean()
  isShortenUrl?: boolean
}

/** Body of `POST /orgs/:orgId/credentials/oob/offer`. */
export class OobOfferCredentialDto extends IssuanceCommonDto {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => CredentialAttributeDto)
  attributes?: CredentialAttributeDto[]

  @IsOptional()
  @IsObject()
  credential?: Record<string, unknown>

  @IsOptional()
  @ValidateNested()
  @Type(() => JsonLdOptionsDto)
  options?: JsonLdOptionsDto

  @IsOptional()
  @IsIn(AUTO_ACCEPT_VALUES)
  autoAcceptCredential?: AutoAcceptValue

  @IsOptional()
  @IsBoolean()
  isShortenUrl?: boolean

  @IsOptional()
  @IsString()
  @MaxLength(200)
  goalCode?: string

  @IsOptional()
  @IsString()
  @MaxLength(200)
  label?: string

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  imageUrl?: string
}

/** One recipient of `POST /orgs/:orgId/credentials/oob/email` (decision: docs/decisions.md, "Credentials"). */
export class EmailCredentialOfferDto extends CredentialContentDto {
  @IsEmail()
  @MaxLength(320)
  emailId: string
}

/** Body of `POST /orgs/:orgId/credentials/oob/email`. */
export class EmailOfferCredentialDto extends IssuanceCommonDto {
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_ENTRIES_PER_REQUEST)
  @ValidateNested({ each: true })
  @Type(() => EmailCredentialOfferDto)
  credentialOffer: EmailCredentialOfferDto[]
}

/** Query shared by the issuance POSTs (spec: `credentialType`, `isValidateSchema`). */
export class IssuanceQuery {
  /** Any string: an unknown value is the spec's 404, answered by the service. */
  @IsOptional()
  @IsString()
  @MaxLength(50)
  credentialType?: string

  @IsOptional()
  @IsIn(['true', 'false'])
  isValidateSchema?: string
}
