import { Counter, Histogram, type Registry, type RegistryContentType } from 'prom-client'

/** Issuance metrics (STYLE.md naming; each record module names its own family, issue 10 item 8). */
export class CredentialMetrics {
  /** One count per state an issuance record entered (created or moved by an agent event). */
  public readonly stateChanges: Counter<'state'>
  /** Time the agent took to make an offer, by route and result. */
  public readonly offerDuration: Histogram<'route' | 'result'>

  public constructor(registry: Registry<RegistryContentType>) {
    this.stateChanges = new Counter({
      name: 'idplane_api_credential_state_changes_total',
      help: 'Issuance records entering each credential exchange state',
      labelNames: ['state'] as const,
      registers: [registry],
    })
    this.offerDuration = new Histogram({
      name: 'idplane_api_credential_offer_duration_seconds',
      help: "Time of the agent's offer call per credential (route: connection, oob, email; result: success, failure)",
      labelNames: ['route', 'result'] as const,
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    })
  }
}
