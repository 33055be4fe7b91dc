import { Counter, type Registry, type RegistryContentType } from 'prom-client'

/** Connection exchanges (STYLE.md naming): every state a connection record of an organization entered. */
export class ConnectionMetrics {
  public readonly stateChanges: Counter<'state'>

  public constructor(registry: Registry<RegistryContentType>) {
    this.stateChanges = new Counter({
      name: 'idplane_api_connection_state_changes_total',
      help: 'Connection records that entered a state (from agent events and agent answers), by state',
      labelNames: ['state'] as const,
      registers: [registry],
    })
  }
}
