import { ContainerModule } from 'inversify'
import { Registry, type RegistryContentType } from 'prom-client'
import type { ApiModule } from '../../infra/api-module'
import { CredentialMetrics } from './credential-metrics'
import { CredentialsController } from './credentials.controller'
import { CredentialsService } from './credentials.service'
import { IssuanceRecord } from './issuance-record.entity'
import { IssuanceRecordsHandler } from './issuance-records.handler'
import { IssuanceRecordsRepository } from './issuance-records.repository'
import { IssuanceRecordsService } from './issuance-records.service'

/**
 * W3C JSON-LD credential issuance (spec: Credential issuance, not bulk) and the organization's issuance records,
 * kept from its agent's `credential` events. Uses the schemas module's CredentialSchemaCheck (`isValidateSchema`).
 */
export const credentialsModule: ApiModule = {
  name: 'credentials',
  controllers: [CredentialsController],
  entities: [IssuanceRecord],
  agentEventHandlers: [{ kind: 'credential', handler: IssuanceRecordsHandler }],
  bindings: new ContainerModule(({ bind }) => {
    bind(IssuanceRecordsRepository).toSelf().inSingletonScope()
    bind(IssuanceRecordsService).toSelf().inSingletonScope()
    bind(IssuanceRecordsHandler).toSelf().inSingletonScope()
    bind(CredentialsService).toSelf().inSingletonScope()
    bind(CredentialsController).toSelf().inSingletonScope()
    bind(CredentialMetrics)
      .toDynamicValue((context) => new CredentialMetrics(context.get<Registry<RegistryContentType>>(Registry)))
      .inSingletonScope()
  }),
}
