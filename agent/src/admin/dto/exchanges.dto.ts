import { Type } from 'class-transformer'
import { IsBoolean, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, IsUUID, ValidateNested } from 'class-validator'

export const AUTO_ACCEPT = ['always', 'contentApproved', 'never'] as const
export type AutoAccept = (typeof AUTO_ACCEPT)[number]

export class JsonLdOptionsDto {
  @IsIn(['Ed25519Signature2018', 'Ed25519Signature2020']) proofType: string
  @IsString() @IsNotEmpty() proofPurpose: string
}

/** A W3C JSON-LD credential offer (the spec's `credential` + `options`, JSONLD type). */
export class JsonLdOfferDto {
  @IsObject() credential: Record<string, unknown>
  @ValidateNested() @Type(() => JsonLdOptionsDto) options: JsonLdOptionsDto
}

export class OfferCredentialDto extends JsonLdOfferDto {
  @IsUUID() connectionId: string
  @IsOptional() @IsString() comment?: string
  @IsOptional() @IsString() goalCode?: string
  @IsOptional() @IsIn(AUTO_ACCEPT) autoAcceptCredential?: AutoAccept
}

export class OobOfferCredentialDto extends JsonLdOfferDto {
  @IsOptional() @IsString() comment?: string
  @IsOptional() @IsString() label?: string
  @IsOptional() @IsString() imageUrl?: string
  @IsOptional() @IsString() goalCode?: string
  @IsOptional() @IsIn(AUTO_ACCEPT) autoAcceptCredential?: AutoAccept
}

export class AcceptOfferDto {
  @IsUUID() credentialRecordId: string
  @IsOptional() @IsIn(AUTO_ACCEPT) autoAcceptCredential?: AutoAccept
  @IsOptional() @IsObject() credentialFormats?: Record<string, unknown>
  @IsOptional() @IsString() comment?: string
}

export class CredentialQueryDto {
  @IsOptional() @IsString() threadId?: string
  @IsOptional() @IsString() connectionId?: string
  @IsOptional() @IsString() state?: string
}

export class RequestProofDto {
  @IsUUID() connectionId: string
  @IsObject() presentationDefinition: Record<string, unknown>
  @IsOptional() @IsString() comment?: string
  @IsOptional() @IsString() goalCode?: string
  @IsOptional() @IsIn(AUTO_ACCEPT) autoAcceptProof?: AutoAccept
  @IsOptional() @IsBoolean() willConfirm?: boolean
}

export class OobRequestProofDto {
  @IsObject() presentationDefinition: Record<string, unknown>
  @IsOptional() @IsString() comment?: string
  @IsOptional() @IsString() goalCode?: string
  @IsOptional() @IsString() label?: string
  @IsOptional() @IsIn(AUTO_ACCEPT) autoAcceptProof?: AutoAccept
}

export class AcceptProofRequestDto {
  @IsUUID() proofRecordId: string
  @IsOptional() @IsBoolean() filterByPresentationPreview?: boolean
  @IsOptional() @IsBoolean() filterByNonRevocationRequirements?: boolean
  @IsOptional() @IsString() comment?: string
}

export class ProofQueryDto {
  @IsOptional() @IsString() threadId?: string
  @IsOptional() @IsString() connectionId?: string
  @IsOptional() @IsString() state?: string
}
