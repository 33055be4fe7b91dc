import { Type } from 'class-transformer'
import { IsBoolean, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, IsUUID, ValidateNested } from 'class-validator'
import type {
  AcceptOfferRequest,
  AcceptProofRequestRequest,
  AutoAccept,
  ExchangeQuery,
  JsonLdOffer,
  JsonLdOfferOptions,
  OfferCredentialRequest,
  OobOfferCredentialRequest,
  OobRequestProofRequest,
  RequestProofRequest,
} from '@idplane/common/agent-contract/admin-api'

export type { AutoAccept }
export const AUTO_ACCEPT = ['always', 'contentApproved', 'never'] as const satisfies readonly AutoAccept[]

export class JsonLdOptionsDto implements JsonLdOfferOptions {
  @IsIn(['Ed25519Signature2018', 'Ed25519Signature2020']) proofType: string
  @IsString() @IsNotEmpty() proofPurpose: string
}

/** A W3C JSON-LD credential offer (the spec's `credential` + `options`, JSONLD type). */
export class JsonLdOfferDto implements JsonLdOffer {
  @IsObject() credential: Record<string, unknown>
  @ValidateNested() @Type(() => JsonLdOptionsDto) options: JsonLdOptionsDto
}

export class OfferCredentialDto extends JsonLdOfferDto implements OfferCredentialRequest {
  @IsUUID() connectionId: string
  @IsOptional() @IsString() comment?: string
  @IsOptional() @IsString() goalCode?: string
  @IsOptional() @IsIn(AUTO_ACCEPT) autoAcceptCredential?: AutoAccept
}

export class OobOfferCredentialDto extends JsonLdOfferDto implements OobOfferCredentialRequest {
  @IsOptional() @IsString() comment?: string
  @IsOptional() @IsString() label?: string
  @IsOptional() @IsString() imageUrl?: string
  @IsOptional() @IsString() goalCode?: string
  @IsOptional() @IsIn(AUTO_ACCEPT) autoAcceptCredential?: AutoAccept
}

export class AcceptOfferDto implements AcceptOfferRequest {
  @IsUUID() credentialRecordId: string
  @IsOptional() @IsIn(AUTO_ACCEPT) autoAcceptCredential?: AutoAccept
  @IsOptional() @IsObject() credentialFormats?: Record<string, unknown>
  @IsOptional() @IsString() comment?: string
}

export class CredentialQueryDto implements ExchangeQuery {
  @IsOptional() @IsString() threadId?: string
  @IsOptional() @IsString() connectionId?: string
  @IsOptional() @IsString() state?: string
}

export class RequestProofDto implements RequestProofRequest {
  @IsUUID() connectionId: string
  @IsObject() presentationDefinition: Record<string, unknown>
  @IsOptional() @IsString() comment?: string
  @IsOptional() @IsString() goalCode?: string
  @IsOptional() @IsIn(AUTO_ACCEPT) autoAcceptProof?: AutoAccept
  @IsOptional() @IsBoolean() willConfirm?: boolean
}

export class OobRequestProofDto implements OobRequestProofRequest {
  @IsObject() presentationDefinition: Record<string, unknown>
  @IsOptional() @IsString() comment?: string
  @IsOptional() @IsString() goalCode?: string
  @IsOptional() @IsString() label?: string
  @IsOptional() @IsIn(AUTO_ACCEPT) autoAcceptProof?: AutoAccept
  @IsOptional() @IsBoolean() reuseConnection?: boolean
}

export class AcceptProofRequestDto implements AcceptProofRequestRequest {
  @IsUUID() proofRecordId: string
  @IsOptional() @IsBoolean() filterByPresentationPreview?: boolean
  @IsOptional() @IsBoolean() filterByNonRevocationRequirements?: boolean
  @IsOptional() @IsString() comment?: string
}

export class ProofQueryDto implements ExchangeQuery {
  @IsOptional() @IsString() threadId?: string
  @IsOptional() @IsString() connectionId?: string
  @IsOptional() @IsString() state?: string
}
