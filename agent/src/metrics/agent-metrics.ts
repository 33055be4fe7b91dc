import { Counter, Histogram, Registry } from 'prom-client'

/** The agent's Prometheus metrics (`idplane_agent_<thing>_<unit>`), on a registry of its own. */
export class AgentMetrics {
  public readonly registry = new Registry()
  public readonly didcommMessages = new Counter({
    name: 'idplane_agent_didcomm_messages_total',
    help: 'DIDComm messages received (in), sent (out), and received again and dropped as already taken (duplicate)',
    labelNames: ['direction'],
    registers: [this.registry],
  })
  public readonly exchanges = new Counter({
    name: 'idplane_agent_exchange_state_changes_total',
    help: 'State changes of connections, credential and proof exchanges, by kind and new state',
    labelNames: ['kind', 'state'],
    registers: [this.registry],
  })
  public readonly eventDeliveries = new Counter({
    name: 'idplane_agent_event_deliveries_total',
    help: 'Platform event delivery attempts by result',
    labelNames: ['result'],
    registers: [this.registry],
  })
  public readonly requestDuration = new Histogram({
    name: 'idplane_agent_admin_request_duration_seconds',
    help: 'Admin API request durations',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  })
  public readonly ledgerRequests = new Histogram({
    name: 'idplane_agent_ledger_request_duration_seconds',
    help: 'Requests to the platform ledger (every attempt) by route and outcome',
    labelNames: ['route', 'outcome'],
    buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  })
  public readonly embeddedDatabaseMaintenance = new Histogram({
    name: 'idplane_agent_embedded_database_maintenance_duration_seconds',
    help: 'Vacuum-and-analyze runs of the embedded database (PGlite has no autovacuum), by outcome; writes wait for each',
    labelNames: ['outcome'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  })
  public readonly idleCollections = new Histogram({
    name: 'idplane_agent_idle_collection_duration_seconds',
    help: 'Memory-reducing garbage collections when the agent went idle (the event loop waits for each)',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  })
}
