import { Type } from 'class-transformer'
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator'
import { STATUS_PURPOSES, type StatusPurpose } from '@idplane/common/bitstring-status-list'

/**
 * A Token Status List entry for the credential (dc+sd-jwt and mso_mdoc; docs/decisions.md, "Token Status List"):
 * `revocation` (revoke) or `suspension` (suspend and reinstate), through POST /v1/orgs/:orgId/credentials/:offerId/revoke.
 */
export class OfferedCredentialStatusDto {
  @IsIn(STATUS_PURPOSES) purpose: StatusPurpose
}

export class OfferedCredentialDto {
  @IsUUID() templateId: string
  /** The claim values, by the template's paths (`{ given_name: 'Ada' }`; mdoc: `{ namespace: { element: value } }`). */
  @IsObject() claims: Record<string, unknown>
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => OfferedCredentialStatusDto)
  status?: OfferedCredentialStatusDto
}

/** A transaction code the wallet must send with the pre-authorized code; the API answers it once, at creation. */
export class TxCodeDto {
  @IsOptional() @IsInt() @Min(4) @Max(12) length?: number
  @IsOptional() @IsIn(['numeric', 'text']) inputMode?: 'numeric' | 'text'
  /** Shown by the wallet next to the input. */
  @IsOptional() @IsString() @MaxLength(300) description?: string
}

/** `POST /orgs/:orgId/oid4vc/:issuerId/create-offer`. */
export class CreateOid4vcOfferDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => OfferedCredentialDto)
  credentials: OfferedCredentialDto[]

  @IsOptional() @IsObject() @ValidateNested() @Type(() => TxCodeDto) txCode?: TxCodeDto
  /** One minute to thirty days. @default 180 seconds */
  @IsOptional() @IsInt() @Min(60) @Max(2592000) expiresInSeconds?: number
}

/** `GET /orgs/:orgId/oid4vc/credential-offer?issuerId=&state=` (state: Credo's, such as `OfferCreated`, `Completed`). */
export class ListOid4vcOffersQuery {
  @IsOptional() @IsString() @MaxLength(100) issuerId?: string
  @IsOptional() @IsString() @MaxLength(64) state?: string
}
