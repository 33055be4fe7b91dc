import { ContainerModule } from 'inversify'
import { Registry, type RegistryContentType } from 'prom-client'
import type { ApiModule } from '../../infra/api-module'
import { CredentialMetrics } from './credential-metrics'
import { CredentialsController } from './credentials.controller'
import { CredentialsService } from './credentials.service'
import { CredentialRecord } from './credential.entity'
import { CredentialEventsHandler } from './credential-events.handler'
import { CredentialsRepository } from './credentials.repository'
import { CredentialRecordsService } from './credential-records.service'

/**
 * W3C JSON-LD credential issuance (spec: Credential issuance, not bulk) and the organization's issuance records,
 * kept from its agent's `credential` events. Uses the schemas module's CredentialSchemaCheck (`isValidateSchema`).
 */
export const credentialsModule: ApiModule = {
  name: 'credentials',
  controllers: [CredentialsController],
  entities: [CredentialRecord],
  agentEventHandlers: [{ kind: 'credential', handler: CredentialEventsHandler }],
  bindings: new ContainerModule(({ bind }) => {
    bind(CredentialsRepository).toSelf().inSingletonScope()
    bind(CredentialRecordsService).toSelf().inSingletonScope()
    bind(CredentialEventsHandler).toSelf().inSingletonScope()
    bind(CredentialsService).toSelf().inSingletonScope()
    bind(CredentialsController).toSelf().inSingletonScope()
    bind(CredentialMetrics)
      .toDynamicValue((context) => new CredentialMetrics(context.get<Registry<RegistryContentType>>(Registry)))
      .inSingletonScope()
  }),
}
