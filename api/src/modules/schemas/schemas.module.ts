import { ContainerModule } from 'inversify'
import type { ApiModule } from '../../infra/api-module'
import { CredentialSchema } from './credential-schema.entity'
import { CredentialSchemaCheck } from './credential-schema-check'
import { PublishedSchemaUrls } from './published-schema-urls'
import { SchemasRepository } from './schemas.repository'

/**
 * Credential schemas (spec: Schemas): `JSON` schemas built from attribute definitions and published by the
 * platform at a public URL; CredentialSchemaCheck validates W3C credentials that name one (`isValidateSchema`).
 */
export const schemasModule: ApiModule = {
  name: 'schemas',
  controllers: [],
  entities: [CredentialSchema],
  bindings: new ContainerModule(({ bind }) => {
    bind(SchemasRepository).toSelf().inSingletonScope()
    bind(PublishedSchemaUrls).toSelf().inSingletonScope()
    bind(CredentialSchemaCheck).toSelf().inSingletonScope()
  }),
}
