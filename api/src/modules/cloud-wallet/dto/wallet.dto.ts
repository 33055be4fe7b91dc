import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  MaxLength,
} from 'class-validator'
import type { AutoAccept } from '@idplane/common/agent-contract/admin-api'

const TEXT = 500
const KEY = 2000
const URL_LENGTH = 2048

/** Body of `POST /v1/configure/base-wallet`. */
export class ConfigureBaseWalletDto {
  @IsString() @IsNotEmpty() @MaxLength(KEY) walletKey: string
  @IsString() @IsNotEmpty() @MaxLength(KEY) apiKey: string
  /** `protocol://host:port`, or a bare domain (then `https://` is meant). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(URL_LENGTH)
  agentEndpoint: string
}

/** Body of `POST /v1/create-wallet`: the user comes from the token, never from here. */
export class CreateWalletDto {
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'label must not be blank' })
  label: string

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  @MaxLength(URL_LENGTH)
  connectionImageUrl?: string
}

/** Body of `POST /v1/connections/invitation`: the spec's fields, all optional. */
export class WalletInvitationDto {
  @IsOptional() @IsString() @MaxLength(TEXT) label?: string
  @IsOptional() @IsString() @MaxLength(TEXT) alias?: string
  @IsOptional() @IsString() @MaxLength(KEY) imageUrl?: string
  @IsOptional() @IsString() @MaxLength(TEXT) goalCode?: string
  @IsOptional() @IsString() @MaxLength(TEXT) goal?: string
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(KEY) invitationDid?: string
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(KEY) recipientKey?: string
  @IsOptional() @IsBoolean() multiUseInvitation?: boolean
  /** Omitted: true (the wallet's agent completes the handshake). */
  @IsOptional() @IsBoolean() autoAcceptConnection?: boolean
  @IsOptional() @IsBoolean() handshake?: boolean
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(TEXT, { each: true })
  handshakeProtocols?: string[]
}

/** Query of `GET /v1/connections`. */
export class WalletConnectionsQuery {
  @IsOptional() @IsString() @MaxLength(KEY) outOfBandId?: string
  @IsOptional() @IsString() @MaxLength(TEXT) alias?: string
  @IsOptional() @IsString() @MaxLength(KEY) myDid?: string
  @IsOptional() @IsString() @MaxLength(KEY) theirDid?: string
  @IsOptional() @IsString() @MaxLength(TEXT) theirLabel?: string
}

/** Query of `GET /v1/credential`. */
export class WalletCredentialsQuery {
  @IsOptional() @IsString() @MaxLength(TEXT) threadId?: string
  @IsOptional() @IsUUID() connectionId?: string
  @IsOptional() @IsString() @MaxLength(50) state?: string
}

/** Query of `GET /v1/proofs`. */
export class WalletProofsQuery {
  @IsOptional() @IsString() @MaxLength(TEXT) threadId?: string
}

export class ConnectionIdParams {
  @IsUUID() connectionId: string
}

export class CredentialRecordIdParams {
  @IsUUID() credentialRecordId: string
}

export class ProofRecordIdParams {
  @IsUUID() proofRecordId: string
}

const AUTO_ACCEPT: readonly AutoAccept[] = ['always', 'contentApproved', 'never']

/** Body of `POST /v1/accept-offer`. */
export class AcceptOfferDto {
  @IsUUID() credentialRecordId: string
  @IsIn(AUTO_ACCEPT) autoAcceptCredential: AutoAccept
  /** Shape depends on the credential format (for JSON-LD, `{ jsonld: {} }`). */
  @IsObject() credentialFormats: Record<string, unknown>
  @IsOptional() @IsString() @MaxLength(TEXT) comment?: string
}

/** Body of `POST /v1/proofs/accept-request`. */
export class AcceptProofRequestDto {
  @IsUUID() proofRecordId: string
  @IsOptional() @IsBoolean() filterByPresentationPreview?: boolean
  @IsOptional() @IsBoolean() filterByNonRevocationRequirements?: boolean
  @IsOptional() @IsString() @MaxLength(TEXT) comment?: string
}

/** Body of `POST /v1/did`: the spec's fields; which are used depends on `method` (docs/decisions.md). */
export class CreateWalletDidDto {
  @IsString() @IsNotEmpty() @MaxLength(50) keyType: string
  @IsString() @IsNotEmpty() @MaxLength(50) method: string
  /** Spec (Limits): 32 characters, no spaces. */
  @IsOptional()
  @IsString()
  @Length(32, 32)
  @Matches(/^\S+$/, { message: 'seed must not contain spaces' })
  seed?: string
  @IsOptional() @IsString() @MaxLength(100) network?: string
  @IsOptional()
  @IsString()
  @Length(1, 253)
  @Matches(/^[A-Za-z0-9.-]+(%3A\d+)?(:[A-Za-z0-9._-]+)*$/, {
    message: 'domain must be a host name, optionally with %3A<port> and :path segments',
  })
  domain?: string
  @IsOptional() @IsString() @MaxLength(50) role?: string
  @IsOptional()
  @IsString()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'privatekey must be 64 hex digits' })
  privatekey?: string
  @IsOptional() @IsString() @MaxLength(KEY) endpoint?: string
  @IsOptional() @IsString() @MaxLength(KEY) did?: string
  @IsOptional() @IsString() @MaxLength(KEY) endorserDid?: string
}
