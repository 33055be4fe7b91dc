import { IsIn, IsOptional, IsString, Length, Matches, ValidateIf } from 'class-validator'
import { DID_METHODS, type DidMethod } from '../org-agent.entity'

/** POST /orgs/:orgId/agents/spinup: the wallet label, the first DID's method (default `key`) and its inputs. */
export class SpinUpAgentDto {
  /** The wallet's and agent's DIDComm label. */
  @IsString()
  @Length(1, 100)
  @Matches(/^\S(.*\S)?$/, { message: 'label must not start or end with a space' })
  label!: string

  @IsOptional()
  @IsIn(DID_METHODS)
  method?: DidMethod

  /** Required for `web`: the host (and optional `%3A<port>` and path segments) the DID names. */
  @ValidateIf((body: SpinUpAgentDto) => body.method === 'web' || body.domain !== undefined)
  @IsString()
  @Length(1, 253)
  @Matches(/^[A-Za-z0-9.-]+(%3A\d+)?(:[A-Za-z0-9._-]+)*$/, {
    message: 'domain must be a host name, optionally with %3A<port> and :path segments',
  })
  domain?: string

  /** Spec (Limits): 32 characters, no spaces. */
  @IsOptional()
  @IsString()
  @Length(32, 32)
  @Matches(/^\S+$/, { message: 'seed must not contain spaces' })
  seed?: string
}
