import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator'
import type {
  AcceptAuthorizationRequestRequest,
  AcceptCredentialOfferRequest,
  CreateX509CertificateRequest,
  CredentialOfferRequest,
  CredentialTemplateRequest,
  ImportX509CertificateRequest,
  IssuerRequest,
  ListCredentialOffersQuery,
  ListPresentationsQuery,
  ListX509CertificatesQuery,
  PresentationRequestRequest,
  SignStatusListTokenRequest,
  ResolveAuthorizationRequestRequest,
  ResolveCredentialOfferRequest,
  TrustAnchorRequest,
  UpdateCredentialTemplateRequest,
  UpdateIssuerRequest,
  UpdateVerifierRequest,
  VerificationTemplateRequest,
  VerifierRequest,
  X509KeyTypeName,
  X509Name,
  X509PurposeName,
  X509StatusName,
} from '@idplane/common/agent-contract/openid4vc-api'

/*
 * The shapes of the OpenID4VC bodies: which members exist and their JSON types. What is inside nested members
 * (names, claims, queries) is checked by the services in agent/src/openid4vc, which report every problem by field.
 */

const KEY_TYPES: X509KeyTypeName[] = ['P-256', 'Ed25519']
const PURPOSES: X509PurposeName[] = ['issuance', 'verification', 'authority']
const STATUSES: X509StatusName[] = ['active', 'inactive']

export class CreateX509CertificateDto implements CreateX509CertificateRequest {
  @IsIn(KEY_TYPES) keyType: X509KeyTypeName
  @IsIn(PURPOSES) purpose: X509PurposeName
  @IsObject() subject: X509Name
  @IsOptional() @IsArray() @IsString({ each: true }) sanDnsNames?: string[]
  @IsOptional() @IsArray() @IsString({ each: true }) sanUriNames?: string[]
  @IsOptional() @IsISO8601() notBefore?: string
  @IsOptional() @IsISO8601() notAfter?: string
  @IsOptional() @IsString() @MaxLength(255) issuerCertificateId?: string
}

export class ImportX509CertificateDto implements ImportX509CertificateRequest {
  @IsIn(PURPOSES) purpose: X509PurposeName
  @IsString() @MaxLength(65536) certificate: string
  @ValidateIf((dto: ImportX509CertificateDto) => typeof dto.privateKey !== 'string')
  @IsObject()
  privateKey: string | Record<string, unknown>
}

export class ListX509CertificatesQueryDto implements ListX509CertificatesQuery {
  @IsOptional() @IsIn(PURPOSES) purpose?: X509PurposeName
  @IsOptional() @IsIn(STATUSES) status?: X509StatusName
}

export class UpdateIssuerDto implements UpdateIssuerRequest {
  @IsOptional() @IsArray() display?: IssuerRequest['display']
  @IsOptional() @IsInt() batchSize?: number
  @IsOptional() @IsArray() @IsString({ each: true }) authorizationServers?: string[]
}

export class CreateIssuerDto extends UpdateIssuerDto implements IssuerRequest {
  @IsOptional() @IsString() @MaxLength(100) issuerId?: string
}

export class UpdateCredentialTemplateDto implements UpdateCredentialTemplateRequest {
  @IsOptional() @IsString() name?: string
  @IsOptional() @IsString() description?: string
  @IsOptional() @IsString() format?: CredentialTemplateRequest['format']
  @IsOptional() @IsString() vct?: string
  @IsOptional() @IsString() doctype?: string
  @IsOptional() @IsArray() types?: string[]
  @IsOptional() @IsArray() claims?: CredentialTemplateRequest['claims']
  @IsOptional() @IsObject() signer?: CredentialTemplateRequest['signer']
  @IsOptional() @IsArray() display?: Record<string, unknown>[]
  @IsOptional() @IsInt() validityDays?: number
  @IsOptional() @IsObject() authorization?: CredentialTemplateRequest['authorization']
}

export class CreateCredentialTemplateDto implements CredentialTemplateRequest {
  @IsString() name: string
  @IsOptional() @IsString() description?: string
  @IsString() format: CredentialTemplateRequest['format']
  @IsOptional() @IsString() vct?: string
  @IsOptional() @IsString() doctype?: string
  @IsOptional() @IsArray() types?: string[]
  @IsArray() claims: CredentialTemplateRequest['claims']
  @IsObject() signer: CredentialTemplateRequest['signer']
  @IsOptional() @IsArray() display?: Record<string, unknown>[]
  @IsOptional() @IsInt() validityDays?: number
  @IsOptional() @IsObject() authorization?: CredentialTemplateRequest['authorization']
}

export class CredentialOfferDto implements CredentialOfferRequest {
  @IsArray() credentials: CredentialOfferRequest['credentials']
  @IsOptional() @IsObject() txCode?: CredentialOfferRequest['txCode']
  @IsOptional() @IsInt() expiresInSeconds?: number
}

export class SignStatusListTokenDto implements SignStatusListTokenRequest {
  @IsObject() signer: SignStatusListTokenRequest['signer']
  @IsObject() payload: Record<string, unknown>
}

export class ListCredentialOffersQueryDto implements ListCredentialOffersQuery {
  @IsOptional() @IsString() @MaxLength(100) issuerId?: string
  @IsOptional() @IsString() @MaxLength(64) state?: string
}

export class UpdateVerifierDto implements UpdateVerifierRequest {
  @IsOptional() @IsString() clientName?: string
  @IsOptional() @IsString() logoUri?: string
}

export class CreateVerifierDto extends UpdateVerifierDto implements VerifierRequest {
  @IsOptional() @IsString() @MaxLength(100) verifierId?: string
}

export class VerificationTemplateDto implements VerificationTemplateRequest {
  @IsString() name: string
  @IsOptional() @IsString() description?: string
  @IsObject() query: VerificationTemplateRequest['query']
  @IsOptional() @IsString() responseMode?: VerificationTemplateRequest['responseMode']
  @IsOptional() @IsObject() signer?: VerificationTemplateRequest['signer']
  @IsOptional() @IsBoolean() isHaip?: boolean
}

export class PresentationRequestDto implements PresentationRequestRequest {
  @IsString() @MaxLength(100) verifierId: string
  @IsOptional() @IsString() @MaxLength(255) templateId?: string
  @IsOptional() @IsObject() query?: PresentationRequestRequest['query']
  @IsOptional() @IsString() responseMode?: PresentationRequestRequest['responseMode']
  @IsOptional() @IsObject() signer?: PresentationRequestRequest['signer']
  @IsOptional() @IsBoolean() isHaip?: boolean
  @IsOptional() @IsInt() expiresInSeconds?: number
}

export class ListPresentationsQueryDto implements ListPresentationsQuery {
  @IsOptional() @IsString() @MaxLength(100) verifierId?: string
  @IsOptional() @IsString() @MaxLength(64) state?: string
}

export class TrustAnchorDto implements TrustAnchorRequest {
  @IsString() @MaxLength(65536) certificate: string
  @IsOptional() @IsString() @MaxLength(255) label?: string
}

/** Offer and request URIs: an inline offer or request object can be long, as the holder service allows (64 KiB). */
const URI_LIMIT = 65536

export class ResolveCredentialOfferDto implements ResolveCredentialOfferRequest {
  @IsString() @MaxLength(URI_LIMIT) offerUri: string
}

export class AcceptCredentialOfferDto extends ResolveCredentialOfferDto implements AcceptCredentialOfferRequest {
  @IsOptional() @IsString() @MaxLength(255) txCode?: string
  @IsOptional() @IsArray() @IsString({ each: true }) configurationIds?: string[]
  @IsOptional() @IsIn(KEY_TYPES) keyType?: X509KeyTypeName
  @IsOptional() @IsInt() batchSize?: number
  @IsOptional() @IsObject() presentation?: AcceptCredentialOfferRequest['presentation']
}

export class ResolveAuthorizationRequestDto implements ResolveAuthorizationRequestRequest {
  @IsString() @MaxLength(URI_LIMIT) requestUri: string
}

export class AcceptAuthorizationRequestDto implements AcceptAuthorizationRequestRequest {
  @IsOptional() @IsString() @MaxLength(255) requestId?: string
  @IsOptional() @IsString() @MaxLength(URI_LIMIT) requestUri?: string
  @IsOptional() @IsObject() selections?: AcceptAuthorizationRequestRequest['selections']
}
