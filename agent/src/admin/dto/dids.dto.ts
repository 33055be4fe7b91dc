import { IsIn, IsObject, IsOptional, IsString, Length, Matches } from 'class-validator'
import type {
  CreateDidRequest,
  SignCredentialRequest,
  VerifyCredentialRequest,
} from '@idplane/common/agent-contract/admin-api'

export class CreateDidDto implements CreateDidRequest {
  @IsIn(['key', 'peer', 'web', 'indy']) method: 'key' | 'peer' | 'web' | 'indy'
  @IsOptional() @IsIn(['ed25519', 'Ed25519']) keyType?: string
  /** Spec: 32 characters, no spaces. */
  @IsOptional() @IsString() @Length(32, 32) @Matches(/^\S+$/) seed?: string
  @IsOptional()
  @IsString()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'privatekey must be 64 hex characters' })
  privatekey?: string
  @IsOptional() @IsString() @Matches(/^[A-Za-z0-9.-]+(%3A\d+)?(:[A-Za-z0-9._-]+)*$/) domain?: string
  /** did:indy only: the endpoint written to the ledger (default: the agent's DIDComm endpoint). */
  @IsOptional() @IsString() endpoint?: string
  /** A DID to import with its key (`seed` or `privatekey`). */
  @IsOptional()
  @IsString()
  @Matches(/^did:(key|peer|web|indy):\S{1,500}$/, { message: 'did must be a did:key, did:peer, did:web or did:indy' })
  did?: string
}

export class SignCredentialDto implements SignCredentialRequest {
  @IsOptional() @IsString() verificationMethod?: string
  @IsIn(['Ed25519Signature2018', 'Ed25519Signature2020']) proofType: string
  @IsObject() credential: Record<string, unknown>
}

export class VerifyCredentialDto implements VerifyCredentialRequest {
  @IsObject() credential: Record<string, unknown>
}
