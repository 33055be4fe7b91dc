import type { Container } from 'inversify'
import { ContainerModule } from 'inversify'
import { Registry, type RegistryContentType } from 'prom-client'
import type { ApiModule } from '../../infra/api-module'
import { bulkIssuanceConfig } from './bulk-issuance.config'
import { BulkIssuanceController } from './bulk-issuance.controller'
import { BulkIssuanceRepository } from './bulk-issuance.repository'
import { BulkExecutionService } from './bulk-execution.service'
import { BulkMetrics } from './bulk-metrics'
import { BulkRequest } from './bulk-request.entity'
import { BulkRow } from './bulk-row.entity'
import { BulkTemplatesService } from './bulk-templates.service'
import { BulkUploadService } from './bulk-upload.service'

/**
 * Bulk issuance from a CSV file (spec: Credential issuance, bulk routes): templates from the organization's JSON
 * schemas (W3C) and credential definitions (INDY), streaming upload and validation, execution as one queue job per
 * row, progress, resume on start.
 */
export const bulkIssuanceModule: ApiModule = {
  name: 'bulk-issuance',
  controllers: [BulkIssuanceController],
  entities: [BulkRequest, BulkRow],
  config: bulkIssuanceConfig,
  bindings: new ContainerModule(({ bind }) => {
    bind(BulkIssuanceRepository).toSelf().inSingletonScope()
    bind(BulkTemplatesService).toSelf().inSingletonScope()
    bind(BulkUploadService).toSelf().inSingletonScope()
    bind(BulkExecutionService).toSelf().inSingletonScope()
    bind(BulkIssuanceController).toSelf().inSingletonScope()
    bind(BulkMetrics)
      .toDynamicValue((context) => {
        const repository = context.get(BulkIssuanceRepository)
        const depth = () => repository.inOwnContext(() => repository.countQueued())
        return new BulkMetrics(context.get<Registry<RegistryContentType>>(Registry), depth)
      })
      .inSingletonScope()
  }),
  start: (container: Container) => container.get(BulkExecutionService).start(),
}
