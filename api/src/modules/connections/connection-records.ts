import { injectable } from 'inversify'
import { ModuleRegistry } from '../../infra/module-registry'
import { OrgExchangeRecords, stateChangedType } from '../../infra/records/exchange-records'
import type { Connection } from './connection.entity'
import { connectionReportOf, type ConnectionFields } from './connection.mapper'
import { CONNECTION_ORDER } from './connection.states'
import { ConnectionMetrics } from './connection-metrics'
import { ConnectionsRepository } from './connections.repository'
import { toConnectionDetail } from './dto/connection.response'

/** The platform event announcing a connection's new state; `record` is the connection as a single read shows it. */
export const CONNECTION_STATE_CHANGED = stateChangedType('connection')

/**
 * An organization's connection records, kept in step with its agent's (infra/records/exchange-records.ts) from the
 * agent's `connection` events and from the records the agent answers to our calls. A record created before the
 * organization's last delete-all was deleted then: its late reports create nothing.
 */
@injectable()
export class ConnectionRecords extends OrgExchangeRecords<Connection, ConnectionFields> {
  public constructor(connections: ConnectionsRepository, modules: ModuleRegistry, metrics: ConnectionMetrics) {
    super(
      {
        name: 'connection',
        order: CONNECTION_ORDER,
        mapper: connectionReportOf,
        store: {
          transactional: (work) => connections.transactional(work),
          lockOrCreate: (orgId, report) => connections.lockOrCreate(orgId, report.recordId, report.fields),
        },
        versionOf: (row) => ({ state: row.state, versionAt: row.agentUpdatedAt }),
        write: (row, report, decision) => {
          if (decision !== 'ignore') Object.assign(row, report.fields)
        },
        eventOwner: (orgId) => ({ orgId }),
        eventRecord: (row, previousState) => ({ ...toConnectionDetail(row), previousState }),
        onAnnounced: (row) => metrics.stateChanges.inc({ state: row.state }),
      },
      modules,
    )
  }
}
