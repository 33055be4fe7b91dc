import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
} from 'class-validator'
import type {
  AcceptAuthorizationRequestRequest,
  AcceptCredentialOfferRequest,
  CredentialSelectionJson,
  X509KeyTypeName,
} from '@idplane/common/agent-contract/openid4vc-api'

/** An offer or request URI: by reference it is short, an inline offer (`credential_offer=`) a few kB. */
const URI_LENGTH = 16384
/** A label or other short text. */
const TEXT = 255
/** The holder service's own bound (agent/src/openid4vc/holder/holder.service.ts, MAX_HOLDER_BATCH). */
const MAX_BATCH = 10

/** `POST /v1/cloud-wallet/oid4vc/offers/resolve`: the offer as the issuer shows it (link or QR payload). */
export class WalletResolveOfferDto {
  @IsString() @IsNotEmpty() @MaxLength(URI_LENGTH) offerUri: string
}

/** `POST /v1/cloud-wallet/oid4vc/offers/accept`: redeem the offer and keep its credentials. */
export class WalletAcceptOfferDto extends WalletResolveOfferDto implements AcceptCredentialOfferRequest {
  /** The transaction code the issuer sent the holder separately, when the offer asks for one. */
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(TEXT) txCode?: string
  /** Only these of the offered credential configurations. @default all */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(TEXT, { each: true })
  configurationIds?: string[]
  /** @default 'P-256' */
  @IsOptional() @IsIn(['P-256', 'Ed25519']) keyType?: X509KeyTypeName
  /** Copies per credential, each bound to its own key (one-time presentation). @default 1 */
  @IsOptional() @IsInt() @Min(1) @Max(MAX_BATCH) batchSize?: number
  /** Offers the issuer authorizes by a presentation: `{ selections }` as for an authorization request. */
  @IsOptional() @IsObject() presentation?: { selections?: Record<string, CredentialSelectionJson> }
}

/** `POST /v1/cloud-wallet/oid4vp/requests/resolve`: the verifier's request as it shows it. */
export class WalletResolveRequestDto {
  @IsString() @IsNotEmpty() @MaxLength(URI_LENGTH) requestUri: string
}

/**
 * `POST /v1/cloud-wallet/oid4vp/requests/accept`: a resolved request (`requestId`) or one to answer at once
 * (`requestUri`), and per credential query id the holder's choice (`credentialId`, `withhold`, `omit`).
 */
export class WalletAcceptRequestDto implements AcceptAuthorizationRequestRequest {
  @IsOptional() @IsUUID() requestId?: string
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(URI_LENGTH) requestUri?: string
  @IsOptional() @IsObject() selections?: Record<string, CredentialSelectionJson>
}

/** `POST /v1/cloud-wallet/oid4vc/trust-anchors`: a certificate whose chains the wallet trusts. */
export class WalletHeldCredentialParams {
  @IsUUID() credentialId: string
}

export class WalletTrustAnchorParams {
  @IsUUID() trustAnchorId: string
}
