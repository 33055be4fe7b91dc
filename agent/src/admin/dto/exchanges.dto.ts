import { Type } from 'class-transformer'
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  Matches,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator'
import type {
  AcceptOfferRequest,
  AnonCredsOffer,
  AnonCredsOfferRequest,
  AnonCredsProofRequestInput,
  AcceptProofRequestRequest,
  AutoAccept,
  ExchangeQuery,
  CreateAnonCredsCredentialDefinitionRequest,
  CreateAnonCredsSchemaRequest,
  CreateRevocationRegistryRequest,
  JsonLdOffer,
  JsonLdOfferOptions,
  OobRequestProofRequest,
  RequestProofRequest,
  RevocationRegistryQuery,
  RevokeCredentialsRequest,
  AnonCredsNonRevokedInterval,
} from '@idplane/common/agent-contract/admin-api'

import { MAX_CRED_NUM } from '../../anoncreds'

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

export class AnonCredsOfferAttributeDto {
  @IsString() @IsNotEmpty() @MaxLength(256) name: string
  @IsString() @MaxLength(65536) value: string
  @IsOptional() @IsString() mimeType?: string
}

export class AnonCredsOfferDto implements AnonCredsOffer {
  @IsString() @IsNotEmpty() credentialDefinitionId: string
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(125)
  @ValidateNested({ each: true })
  @Type(() => AnonCredsOfferAttributeDto)
  attributes: AnonCredsOfferAttributeDto[]
  @ValidateIf((offer: AnonCredsOfferDto) => offer.revocationRegistryIndex !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  revocationRegistryDefinitionId?: string
  @ValidateIf((offer: AnonCredsOfferDto) => offer.revocationRegistryDefinitionId !== undefined)
  @IsInt()
  @Min(1)
  @Max(MAX_CRED_NUM - 1)
  revocationRegistryIndex?: number
}

export class AnonCredsCredentialFormatsDto {
  @ValidateNested() @Type(() => AnonCredsOfferDto) anoncreds: AnonCredsOfferDto
}

/**
 * A JSON-LD offer (`credential` + `options`) or an AnonCreds one (`credentialFormats.anoncreds`): exactly one.
 * The JSON-LD fields are validated only when no AnonCreds format is given.
 */
export class OfferCredentialDto implements Partial<JsonLdOffer>, Partial<AnonCredsOfferRequest> {
  @ValidateIf((body: OfferCredentialDto) => body.credentialFormats === undefined) @IsObject() credential?: Record<
    string,
    unknown
  >
  @ValidateIf((body: OfferCredentialDto) => body.credentialFormats === undefined)
  @ValidateNested()
  @Type(() => JsonLdOptionsDto)
  options?: JsonLdOptionsDto
  @IsOptional()
  @ValidateNested()
  @Type(() => AnonCredsCredentialFormatsDto)
  credentialFormats?: AnonCredsCredentialFormatsDto
  @IsOptional() @IsIn(['v1', 'v2']) protocolVersion?: 'v1' | 'v2'
  @IsUUID() connectionId: string
  @IsOptional() @IsString() comment?: string
  @IsOptional() @IsString() goalCode?: string
  @IsOptional() @IsIn(AUTO_ACCEPT) autoAcceptCredential?: AutoAccept
}

/** Out-of-band: a JSON-LD offer or an AnonCreds one, as POST /credentials/offer. */
export class OobOfferCredentialDto implements Partial<JsonLdOffer>, Partial<AnonCredsOfferRequest> {
  @ValidateIf((body: OobOfferCredentialDto) => body.credentialFormats === undefined)
  @IsObject()
  credential?: Record<string, unknown>
  @ValidateIf((body: OobOfferCredentialDto) => body.credentialFormats === undefined)
  @ValidateNested()
  @Type(() => JsonLdOptionsDto)
  options?: JsonLdOptionsDto
  @IsOptional()
  @ValidateNested()
  @Type(() => AnonCredsCredentialFormatsDto)
  credentialFormats?: AnonCredsCredentialFormatsDto
  @IsOptional() @IsIn(['v1', 'v2']) protocolVersion?: 'v1' | 'v2'
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

export class AnonCredsProofRequestDto implements AnonCredsProofRequestInput {
  @IsOptional() @IsString() @MaxLength(256) name?: string
  @IsOptional() @IsString() @MaxLength(64) version?: string
  // The referents are checked against the AnonCreds request shape in the controller (AnonCredsError: 400).
  @IsOptional() @IsObject() requested_attributes?: AnonCredsProofRequestInput['requested_attributes']
  @IsOptional() @IsObject() requested_predicates?: AnonCredsProofRequestInput['requested_predicates']
  // Checked with the referents' own intervals by the request parser (AnonCredsError: 400).
  @IsOptional() @IsObject() non_revoked?: AnonCredsNonRevokedInterval
}

export class AnonCredsProofFormatsDto {
  @ValidateNested() @Type(() => AnonCredsProofRequestDto) anoncreds: AnonCredsProofRequestDto
}

/** DIF Presentation Exchange (`presentationDefinition`) or AnonCreds (`proofFormats.anoncreds`): exactly one. */
export class RequestProofDto implements RequestProofRequest {
  @IsUUID() connectionId: string
  @ValidateIf((body: RequestProofDto) => body.proofFormats === undefined)
  @IsObject()
  presentationDefinition?: Record<string, unknown>
  @IsOptional() @ValidateNested() @Type(() => AnonCredsProofFormatsDto) proofFormats?: AnonCredsProofFormatsDto
  @IsOptional() @IsIn(['v1', 'v2']) protocolVersion?: 'v1' | 'v2'
  @IsOptional() @IsString() comment?: string
  @IsOptional() @IsString() goalCode?: string
  @IsOptional() @IsIn(AUTO_ACCEPT) autoAcceptProof?: AutoAccept
  @IsOptional() @IsBoolean() willConfirm?: boolean
}

export class OobRequestProofDto implements OobRequestProofRequest {
  @ValidateIf((body: OobRequestProofDto) => body.proofFormats === undefined)
  @IsObject()
  presentationDefinition?: Record<string, unknown>
  @IsOptional() @ValidateNested() @Type(() => AnonCredsProofFormatsDto) proofFormats?: AnonCredsProofFormatsDto
  @IsOptional() @IsIn(['v1', 'v2']) protocolVersion?: 'v1' | 'v2'
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

export class CreateAnonCredsSchemaDto implements CreateAnonCredsSchemaRequest {
  @IsOptional() @IsString() @IsNotEmpty() issuerId?: string
  @IsOptional() @IsBoolean() legacyIdentifiers?: boolean
  @IsString() @IsNotEmpty() @MaxLength(256) name: string
  @IsString() @IsNotEmpty() @MaxLength(64) version: string
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(125)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(256, { each: true })
  attributes: string[]
}

export class ResolveCredentialDefinitionQueryDto {
  @IsString() @IsNotEmpty() @MaxLength(500) credentialDefinitionId: string
}

export class CreateAnonCredsCredentialDefinitionDto implements CreateAnonCredsCredentialDefinitionRequest {
  @IsString() @IsNotEmpty() schemaId: string
  @IsOptional() @IsString() @IsNotEmpty() issuerId?: string
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(64) tag?: string
  @IsOptional() @IsBoolean() supportRevocation?: boolean
}

export class CreateRevocationRegistryDto implements CreateRevocationRegistryRequest {
  @IsString() @IsNotEmpty() @MaxLength(500) credentialDefinitionId: string
  // anoncreds-rs' numbering: a registry of N holds the indices 1 to N-1.
  @IsInt() @Min(2) @Max(MAX_CRED_NUM) maximumCredentialNumber: number
  // Part of the registry's identifier: no ':' or '/'.
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(64) @Matches(/^[A-Za-z0-9_.-]+$/) tag?: string
}

export class RevokeCredentialsDto implements RevokeCredentialsRequest {
  @IsString() @IsNotEmpty() @MaxLength(500) revocationRegistryDefinitionId: string
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10000)
  @IsInt({ each: true })
  @Min(1, { each: true })
  revokedIndices: number[]
}

export class RevocationRegistryQueryDto implements RevocationRegistryQuery {
  @IsString() @IsNotEmpty() @MaxLength(500) revocationRegistryDefinitionId: string
}
