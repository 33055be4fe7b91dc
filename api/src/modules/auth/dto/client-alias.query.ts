import { IsOptional, IsString, MaxLength } from 'class-validator'

/** `?clientAlias=` of the endpoints that start user flows (spec: Authentication 5). */
export class ClientAliasQuery {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  clientAlias?: string
}
