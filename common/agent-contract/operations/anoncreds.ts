import type {
  AnonCredsCredentialDefinitionResponse,
  AnonCredsCredentialInfo,
  AnonCredsSchemaResponse,
  CreateAnonCredsCredentialDefinitionRequest,
  CreateAnonCredsSchemaRequest,
  CreateRevocationRegistryRequest,
  ResolveCredentialDefinitionQuery,
  ResolvedCredentialDefinition,
  RevocationRegistryQuery,
  RevocationRegistryState,
  RevokeCredentialsRequest,
} from '../admin-api'
import { defineOperation, operationsByName, shape } from '../operation'

const LEDGER_ERRORS = {
  501: 'an Indy identifier on an agent without a ledger',
  502: 'the ledger cannot be reached or fails',
} as const

/**
 * AnonCreds schemas, credential definitions and revocation registries through the agent's registry, and the
 * credentials it holds.
 */
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
  createRevocationRegistry: defineOperation({
    name: 'createRevocationRegistry',
    method: 'POST',
    path: '/anoncreds/revocation-registries',
    message: 'Revocation registry registered',
    body: shape<CreateRevocationRegistryRequest>(),
    result: shape<RevocationRegistryState>(),
    summary: 'Makes a revocation registry (tails file stored by the platform) and publishes its first status list',
    errors: {
      400: 'the definition does not support revocation, a size out of range, or a registry refusal',
      404: 'a credential definition this wallet did not create',
      409: 'the identifier holds another object',
      ...LEDGER_ERRORS,
    },
  }),
  revokeAnonCredsCredentials: defineOperation({
    name: 'revokeAnonCredsCredentials',
    method: 'POST',
    path: '/anoncreds/revocation-registries/revoke',
    message: 'Status list published',
    body: shape<RevokeCredentialsRequest>(),
    result: shape<RevocationRegistryState>(),
    summary: "Revokes indices of one of this wallet's registries and publishes the next status list",
    errors: {
      400: 'an index out of range, or a registry refusal',
      404: 'a registry this wallet did not create',
      ...LEDGER_ERRORS,
    },
  }),
  getRevocationRegistry: defineOperation({
    name: 'getRevocationRegistry',
    method: 'GET',
    path: '/anoncreds/revocation-registry',
    query: shape<RevocationRegistryQuery>(),
    result: shape<RevocationRegistryState>(),
    summary: "One of this wallet's registries with its status list now (identifiers hold / and :)",
    errors: { 404: 'a registry this wallet did not create', ...LEDGER_ERRORS },
  }),
  listAnonCredsCredentials: defineOperation({
    name: 'listAnonCredsCredentials',
    method: 'GET',
    path: '/anoncreds/credentials',
    result: shape<AnonCredsCredentialInfo[]>(),
    summary: 'The AnonCreds credentials this wallet holds',
  }),
})
