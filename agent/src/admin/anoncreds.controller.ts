import type { ANONCREDS_OPERATIONS } from '@idplane/common/agent-contract/operations/anoncreds'

import type { AdminController } from './admin-routes'
import type { AnonCredsRevocationService } from './anoncreds-revocation.service'
import type { AnonCredsService } from './anoncreds.service'
import {
  CreateAnonCredsCredentialDefinitionDto,
  CreateAnonCredsSchemaDto,
  CreateRevocationRegistryDto,
  ResolveCredentialDefinitionQueryDto,
  RevocationRegistryQueryDto,
  RevokeCredentialsDto,
} from './dto/exchanges.dto'

export function anonCredsController(
  anoncreds: AnonCredsService,
  revocation: AnonCredsRevocationService,
): AdminController<typeof ANONCREDS_OPERATIONS> {
  return {
    createAnonCredsSchema: {
      body: CreateAnonCredsSchemaDto,
      handle: ({ scope, body }) => anoncreds.createSchema(scope, body),
    },
    getAnonCredsSchema: { handle: ({ scope, params }) => anoncreds.getSchema(scope, params.schemaId) },
    createAnonCredsCredentialDefinition: {
      body: CreateAnonCredsCredentialDefinitionDto,
      handle: ({ scope, body }) => anoncreds.createCredentialDefinition(scope, body),
    },
    listAnonCredsCredentialDefinitions: { handle: ({ scope }) => anoncreds.listCredentialDefinitions(scope) },
    resolveCredentialDefinition: {
      query: ResolveCredentialDefinitionQueryDto,
      handle: ({ scope, query }) => anoncreds.resolveCredentialDefinition(scope, query.credentialDefinitionId),
    },
    createRevocationRegistry: {
      body: CreateRevocationRegistryDto,
      handle: ({ scope, body }) => revocation.create(scope, body),
    },
    revokeAnonCredsCredentials: {
      body: RevokeCredentialsDto,
      handle: ({ scope, body }) => revocation.revoke(scope, body),
    },
    getRevocationRegistry: {
      query: RevocationRegistryQueryDto,
      handle: ({ scope, query }) => revocation.get(scope, query.revocationRegistryDefinitionId),
    },
    listAnonCredsCredentials: { handle: ({ scope }) => anoncreds.listCredentials(scope) },
  }
}
