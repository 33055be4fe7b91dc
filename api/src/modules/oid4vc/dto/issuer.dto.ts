import { Type } from 'class-transformer'
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsNotIn,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator'
import type {
  IssuerDisplayJson,
  IssuerRequest,
  UpdateIssuerRequest,
} from '@idplane/common/agent-contract/openid4vc-api'

/** Public ids of issuers and verifiers: part of their URLs. */
export const PUBLIC_ID = /^[A-Za-z0-9._~-]{1,100}$/
export const PUBLIC_ID_MESSAGE = 'must be 1 to 100 URL-safe characters (letters, digits, . _ ~ -)'

/** Path segments of the issuance routes that an issuer id in `/:issuerId/...` would collide with. */
const RESERVED_ISSUER_IDS = ['issuers', 'credential-offer']

export class Oid4vcIssuerDisplayDto implements IssuerDisplayJson {
  @IsString() @IsNotEmpty() @MaxLength(256) name: string
  @IsOptional() @IsString() @MaxLength(35) locale?: string
  /** https or data URL. */
  @IsOptional() @IsString() @MaxLength(65536) logoUri?: string
  @IsOptional() @IsString() @MaxLength(256) logoAltText?: string
}

/** `POST /orgs/:orgId/oid4vc/issuers/:issuerId`: replaces display, batch size and authorization servers. */
export class UpdateOid4vcIssuerDto implements UpdateIssuerRequest {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => Oid4vcIssuerDisplayDto)
  display?: Oid4vcIssuerDisplayDto[]

  /** Batch issuance: most copies of a credential a wallet may get in one request. @default 1 */
  @IsOptional() @IsInt() @Min(1) @Max(100) batchSize?: number

  /** External OAuth 2 authorization servers (templates with `authorization.type` `external`). */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @MaxLength(2048, { each: true })
  authorizationServers?: string[]
}

/** `POST /orgs/:orgId/oid4vc/issuers`. */
export class CreateOid4vcIssuerDto extends UpdateOid4vcIssuerDto implements IssuerRequest {
  /**
   * The public id in the issuer's URL (`<agent endpoint>/oid4vci/<issuerId>`); a uuid when absent. `issuers` and
   * `credential-offer` would be shadowed by the routes of those names.
   */
  @IsOptional()
  @Matches(PUBLIC_ID, { message: `issuerId ${PUBLIC_ID_MESSAGE}` })
  @IsNotIn(RESERVED_ISSUER_IDS)
  issuerId?: string
}
