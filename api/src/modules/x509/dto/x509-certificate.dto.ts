import { Type } from 'class-transformer'
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator'
import type {
  CreateX509CertificateRequest,
  ImportX509CertificateRequest,
  X509Name,
} from '@idplane/common/agent-contract/openid4vc-api'

export const X509_KEY_TYPES = ['P-256', 'Ed25519'] as const
export const X509_PURPOSES = ['issuance', 'verification', 'authority'] as const

/** The subject of a certificate (X.500 names); the agent checks the values. */
export class X509NameDto implements X509Name {
  @IsString() @IsNotEmpty() @MaxLength(64) commonName: string
  @IsOptional() @IsString() @MaxLength(64) organization?: string
  @IsOptional() @IsString() @MaxLength(64) organizationalUnit?: string
  /** ISO 3166 two-letter code (ISO 18013-5 wants it on mdoc certificates). */
  @IsOptional() @IsString() @MaxLength(2) country?: string
  @IsOptional() @IsString() @MaxLength(128) stateOrProvince?: string
  @IsOptional() @IsString() @MaxLength(128) locality?: string
}

/**
 * `POST /x509/:orgId`: a new key in the organization's agent and a certificate for it, self-signed or signed by one
 * of its active `authority` certificates (`issuerCertificateId`). A `verification` certificate needs the verifier's
 * host in `sanDnsNames` (x509_san_dns).
 */
export class CreateX509CertificateDto implements CreateX509CertificateRequest {
  @IsIn(X509_KEY_TYPES) keyType: 'P-256' | 'Ed25519'
  @IsIn(X509_PURPOSES) purpose: 'issuance' | 'verification' | 'authority'
  @IsObject() @ValidateNested() @Type(() => X509NameDto) subject: X509NameDto
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(253, { each: true })
  sanDnsNames?: string[]
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(2048, { each: true })
  sanUriNames?: string[]
  @IsOptional() @IsISO8601() notBefore?: string
  @IsOptional() @IsISO8601() notAfter?: string
  @IsOptional() @IsUUID() issuerCertificateId?: string
}

/** `POST /x509/:orgId/import`: a certificate (PEM chain, leaf first, or base64 DER) with its private key. */
export class ImportX509CertificateDto implements ImportX509CertificateRequest {
  @IsIn(X509_PURPOSES) purpose: 'issuance' | 'verification' | 'authority'
  @IsString() @IsNotEmpty() @MaxLength(65536) certificate: string
  /** PKCS#8 PEM, or a private JWK object. */
  @ValidateIf((dto: ImportX509CertificateDto) => typeof dto.privateKey !== 'string')
  @IsObject()
  privateKey: string | Record<string, unknown>
}
