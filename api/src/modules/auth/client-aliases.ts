import { InvalidInputError } from '@idplane/common'
import type { ClientAlias } from '../../infra/config'
import { object, optional, string, uri } from '../../infra/http/data-schema'

/** What GET /auth/clientAliases shows of an alias: branding and URLs, nothing else from the configuration. */
export interface ClientAliasResponse {
  alias: string
  name: string
  url: string
  logoUrl?: string
}

export function toClientAliasResponse(alias: ClientAlias): ClientAliasResponse {
  return {
    alias: alias.alias,
    name: alias.name,
    url: alias.url,
    ...(alias.logoUrl === undefined ? {} : { logoUrl: alias.logoUrl }),
  }
}

/**
 * The alias a user flow runs under: the one named (case-insensitively), or the first configured alias when
 * none is named (spec: Authentication 5).
 * @throws InvalidInputError for an alias that is not configured
 */
export function resolveClientAlias(aliases: readonly ClientAlias[], requested: string | undefined): ClientAlias {
  const wanted = requested?.trim().toUpperCase()
  const found = wanted ? aliases.find((alias) => alias.alias === wanted) : aliases[0]
  if (!found) {
    throw new InvalidInputError('Unknown client alias', [
      { field: 'clientAlias', message: 'clientAlias must be one of the values of GET /v1/auth/clientAliases' },
    ])
  }
  return found
}

/** ClientAliasResponse in the OpenAPI document. */
export const CLIENT_ALIAS_SCHEMA = object<ClientAliasResponse>('ClientAlias', {
  alias: string,
  name: string,
  url: uri,
  logoUrl: optional(string),
})
