import type { ANONCREDS_OPERATIONS } from '@idplane/common/agent-contract/operations/anoncreds'

import type { AdminController } from './admin-routes'
import type { AnonCredsService } from './anoncreds.service'
import {
  CreateAnonCredsCredentialDefinitionDto,
  CreateAnonCredsSchemaDto,
  ResolveCredentialDefinitionQueryDto,
} from './dto/exchanges.dto'

export function anonCredsController(anoncreds: AnonCredsService): AdminController<typeof ANONCREDS_OPERATIONS> {
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
    listAnonCredsCredentials: { handle: ({ scope }) => anoncreds.listCredentials(scope) },
  }
}
