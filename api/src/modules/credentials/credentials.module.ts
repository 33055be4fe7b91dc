import { ContainerModule } from 'inversify'
import { Registry, type RegistryContentType } from 'prom-client'
import type { ApiModule } from '../../infra/api-module'
import { CredentialMetrics } from './credential-metrics'
import { CredentialsController } from './credentials.controller'
import { CredentialsService } from './credentials.service'
import { CredentialRecord } from './credential.entity'
import { CredentialsRepository } from './credentials.repository'
import { CredentialRecords } from './credential-records'
import { RevocableOffers } from './revocable-offers'
import { CredentialRevocations } from './credential-revocations'

/**
 * W3C JSON-LD credential issuance (spec: Credential issuance, not bulk) and the organization's issuance records,
 * kept from its agent's `credential` events. Uses the schemas module's CredentialSchemaCheck (`isValidateSchema`).
 */
export const credentialsModule: ApiModule = {
  name: 'credentials',
  controllers: [CredentialsController],
  entities: [CredentialRecord],
  agentEventHandlers: [{ kind: 'credential', handler: CredentialRecords }],
  bindings: new ContainerModule(({ bind }) => {
    bind(CredentialsRepository).toSelf().inSingletonScope()
    bind(CredentialRecords).toSelf().inSingletonScope()
    bind(RevocableOffers).toSelf().inSingletonScope()
    bind(CredentialRevocations).toSelf().inSingletonScope()
    bind(CredentialsService).toSelf().inSingletonScope()
    bind(CredentialsController).toSelf().inSingletonScope()
    bind(CredentialMetrics)
      .toDynamicValue((context) => new CredentialMetrics(context.get<Registry<RegistryContentType>>(Registry)))
      .inSingletonScope()
  }),
}
