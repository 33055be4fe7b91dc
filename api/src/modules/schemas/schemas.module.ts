import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { CredentialSchema } from './credential-schema.entity'
import { CredentialSchemaCheck } from './credential-schema-check'
import { IndyIssuers } from './indy-issuers'
import { PublishedSchemaUrls } from './published-schema-urls'
import { publishedSchemaRoutes } from './published-schemas.router'
import { SchemasController } from './schemas.controller'
import { SchemasCounter } from './schemas.counter'
import { SchemasRepository } from './schemas.repository'
import { SchemasService } from './schemas.service'

/**
 * Credential schemas (spec: Schemas): `JSON` schemas built from attribute definitions and published by the
 * platform at `/schemas/:id` (no token); CredentialSchemaCheck validates W3C credentials that name one
 * (`isValidateSchema`). `INDY` schemas registered through the organization's agent and its AnonCreds registry,
 * under the DID IndyIssuers picks; their credential definitions are the cred-defs module's.
 */
export const schemasModule: ApiModule = {
  name: 'schemas',
  controllers: [SchemasController],
  entities: [CredentialSchema],
  counter: SchemasCounter,
  router: publishedSchemaRoutes,
  bindings: new ContainerModule(({ bind }) => {
    bind(SchemasRepository).toSelf().inSingletonScope()
    bind(PublishedSchemaUrls).toSelf().inSingletonScope()
    bind(SchemasService).toSelf().inSingletonScope()
    bind(IndyIssuers).toSelf().inSingletonScope()
    bind(CredentialSchemaCheck).toSelf().inSingletonScope()
    bind(SchemasCounter).toSelf().inSingletonScope()
    bind(SchemasController).toSelf().inSingletonScope()
  }),
}
