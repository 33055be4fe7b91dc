import type {
  AnonCredsCredentialDefinitionResponse,
  AnonCredsCredentialInfo,
  AnonCredsSchemaResponse,
  CreateAnonCredsCredentialDefinitionRequest,
  CreateAnonCredsSchemaRequest,
  ResolveCredentialDefinitionQuery,
  ResolvedCredentialDefinition,
} from '../admin-api'
import { defineOperation, operationsByName, shape } from '../operation'

const LEDGER_ERRORS = {
  501: 'an Indy identifier on an agent without a ledger',
  502: 'the ledger cannot be reached or fails',
} as const

/** AnonCreds schemas and credential definitions through the agent's registry, and the credentials it holds. */
export const ANONCREDS_OPERATIONS = operationsByName({
  createAnonCredsSchema: defineOperation({
    name: 'createAnonCredsSchema',
    method: 'POST',
    path: '/anoncreds/schemas',
    message: 'Schema registered',
    body: shape<CreateAnonCredsSchemaRequest>(),
    result: shape<AnonCredsSchemaResponse>(),
    summary: 'Registers a schema',
    errors: {
      400: 'duplicate attribute names, or a registry refusal',
      409: 'the identifier holds another object',
      ...LEDGER_ERRORS,
    },
  }),
  getAnonCredsSchema: defineOperation({
    name: 'getAnonCredsSchema',
    method: 'GET',
    path: '/anoncreds/schemas/:schemaId',
    result: shape<AnonCredsSchemaResponse>(),
    summary: "Any issuer's schema as the registry resolves it",
    errors: { 400: 'a malformed identifier', 404: 'no registry of the agent has it', ...LEDGER_ERRORS },
  }),
  createAnonCredsCredentialDefinition: defineOperation({
    name: 'createAnonCredsCredentialDefinition',
    method: 'POST',
    path: '/anoncreds/credential-definitions',
    message: 'Credential definition registered',
    body: shape<CreateAnonCredsCredentialDefinitionRequest>(),
    result: shape<AnonCredsCredentialDefinitionResponse>(),
    summary: 'Generates the keys (seconds) and registers the public part',
    errors: {
      400: 'a registry refusal',
      404: 'an unknown schema',
      409: 'the identifier holds another object',
      ...LEDGER_ERRORS,
    },
  }),
  listAnonCredsCredentialDefinitions: defineOperation({
    name: 'listAnonCredsCredentialDefinitions',
    method: 'GET',
    path: '/anoncreds/credential-definitions',
    result: shape<AnonCredsCredentialDefinitionResponse[]>(),
    summary: 'The credential definitions this wallet created',
  }),
  resolveCredentialDefinition: defineOperation({
    name: 'resolveCredentialDefinition',
    method: 'GET',
    path: '/anoncreds/credential-definition',
    query: shape<ResolveCredentialDefinitionQuery>(),
    result: shape<ResolvedCredentialDefinition>(),
    summary: 'Any credential definition the registry resolves, with its schema (identifiers hold / and :)',
    errors: { 404: 'the definition or its schema is unknown' },
  }),
  listAnonCredsCredentials: defineOperation({
    name: 'listAnonCredsCredentials',
    method: 'GET',
    path: '/anoncreds/credentials',
    result: shape<AnonCredsCredentialInfo[]>(),
    summary: 'The AnonCreds credentials this wallet holds',
  }),
})
