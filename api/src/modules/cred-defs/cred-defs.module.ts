import type { Container } from 'inversify'
import { ContainerModule } from 'inversify'
import { Registry, type RegistryContentType } from 'prom-client'
import type { ApiModule } from '../../infra/api-module'
import { CredDefMetrics } from './cred-def-metrics'
import { credDefsConfig } from './cred-defs.config'
import { CredDefsController } from './cred-defs.controller'
import { CredDefsRepository } from './cred-defs.repository'
import { CredDefsService } from './cred-defs.service'
import { CredentialDefinition } from './credential-definition.entity'
import { SchemaCredDefsController } from './schema-cred-defs.controller'

/**
 * INDY credential definitions (spec: Credential definitions): records, and their key generation as queued jobs
 * that survive restarts (CredDefsService), and a schema's definitions (`GET /orgs/:orgId/schemas/:schemaId/cred-defs`,
 * SchemaCredDefsController).
 */
export const credDefsModule: ApiModule = {
  name: 'cred-defs',
  controllers: [CredDefsController, SchemaCredDefsController],
  entities: [CredentialDefinition],
  config: credDefsConfig,
  bindings: new ContainerModule(({ bind }) => {
    bind(CredDefsRepository).toSelf().inSingletonScope()
    bind(CredDefsService).toSelf().inSingletonScope()
    bind(CredDefsController).toSelf().inSingletonScope()
    bind(SchemaCredDefsController).toSelf().inSingletonScope()
    bind(CredDefMetrics)
      .toDynamicValue((context) => new CredDefMetrics(context.get<Registry<RegistryContentType>>(Registry)))
      .inSingletonScope()
  }),
  start: (container: Container) => container.get(CredDefsService).start(),
}
