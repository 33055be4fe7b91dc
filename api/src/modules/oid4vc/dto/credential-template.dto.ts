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
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator'
import type { TemplateClaimJson } from '@idplane/common/agent-contract/openid4vc-api'

export const CREDENTIAL_FORMATS = ['dc+sd-jwt', 'mso_mdoc', 'jwt_vc_json'] as const
export const SIGNER_METHODS = ['did', 'x5c'] as const
export const AUTHORIZATION_TYPES = ['pre-authorized', 'presentation', 'external'] as const

/** One claim (OID4VCI 1.0 claims description); mdoc paths are `[namespace, elementIdentifier]`. */
export class TemplateClaimDto implements TemplateClaimJson {
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(5) @IsString({ each: true }) @MaxLength(128, { each: true }) path: string[]
  /** The offer must give a value. @default false */
  @IsOptional() @IsBoolean() mandatory?: boolean
  /** dc+sd-jwt: issued as a disclosure the holder may withhold. @default true */
  @IsOptional() @IsBoolean() selectivelyDisclosable?: boolean
  /** `{ name, locale? }` entries. */
  @IsOptional() @IsArray() @ArrayMaxSize(20) @IsObject({ each: true }) display?: { name: string; locale?: string }[]
}

/** Who signs: a DID of the organization, or its active `issuance` x509 certificate (`x5c`; mdoc needs it). */
export class TemplateSignerDto {
  @IsIn(SIGNER_METHODS) method: 'did' | 'x5c'
  @IsOptional() @IsString() @MaxLength(2048) did?: string
}

/**
 * How the holder is authorized: `pre-authorized` (default; the offer may ask for a transaction code),
 * `presentation` (authorization code flow after presenting credentials answering `dcql`) or `external` (an
 * authorization server of the issuer's).
 */
export class TemplateAuthorizationDto {
  @IsIn(AUTHORIZATION_TYPES) type: 'pre-authorized' | 'presentation' | 'external'
  @IsOptional() @IsObject() dcql?: Record<string, unknown>
  @IsOptional() @IsString() @MaxLength(2048) authorizationServerUrl?: string
}

/** `PATCH /orgs/:orgId/oid4vc/:issuerId/template/:templateId`: the given fields replace the stored ones. */
export class UpdateCredentialTemplateDto {
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(256) name?: string
  @IsOptional() @IsString() @MaxLength(2000) description?: string
  @IsOptional() @IsIn(CREDENTIAL_FORMATS) format?: 'dc+sd-jwt' | 'mso_mdoc' | 'jwt_vc_json'
  /** dc+sd-jwt: the credential type. */
  @IsOptional() @IsString() @MaxLength(256) vct?: string
  /** mso_mdoc: the document type. */
  @IsOptional() @IsString() @MaxLength(256) doctype?: string
  /** jwt_vc_json: `VerifiableCredential` first, then the credential's own type. */
  @IsOptional() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) types?: string[]

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => TemplateClaimDto)
  claims?: TemplateClaimDto[]

  @IsOptional() @IsObject() @ValidateNested() @Type(() => TemplateSignerDto) signer?: TemplateSignerDto
  /** Credential display entries (`name`, `locale`, `description`, colors, `logoUri`). */
  @IsOptional() @IsArray() @ArrayMaxSize(20) @IsObject({ each: true }) display?: Record<string, unknown>[]
  @IsOptional() @IsInt() @Min(1) @Max(36500) validityDays?: number

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TemplateAuthorizationDto)
  authorization?: TemplateAuthorizationDto
}

/** `POST /orgs/:orgId/oid4vc/:issuerId/template`: one credential configuration of the issuer's metadata. */
export class CreateCredentialTemplateDto {
  @IsString() @IsNotEmpty() @MaxLength(256) name: string
  @IsOptional() @IsString() @MaxLength(2000) description?: string
  @IsIn(CREDENTIAL_FORMATS) format: 'dc+sd-jwt' | 'mso_mdoc' | 'jwt_vc_json'
  @IsOptional() @IsString() @MaxLength(256) vct?: string
  @IsOptional() @IsString() @MaxLength(256) doctype?: string
  @IsOptional() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) types?: string[]

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => TemplateClaimDto)
  claims: TemplateClaimDto[]

  @IsObject() @ValidateNested() @Type(() => TemplateSignerDto) signer: TemplateSignerDto
  @IsOptional() @IsArray() @ArrayMaxSize(20) @IsObject({ each: true }) display?: Record<string, unknown>[]
  @IsOptional() @IsInt() @Min(1) @Max(36500) validityDays?: number

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TemplateAuthorizationDto)
  authorization?: TemplateAuthorizationDto
}
