import { Counter, type Registry, type RegistryContentType } from 'prom-client'

/** OpenID4VP verification metrics (STYLE.md naming), as the DIDComm exchanges have them. */
export class Oid4vpMetrics {
  public readonly stateChanges: Counter<'state'>

  public constructor(registry: Registry<RegistryContentType>) {
    this.stateChanges = new Counter({
      name: 'idplane_api_oid4vp_verification_state_changes_total',
      help: 'OID4VP verification sessions that reached a state (each actual change once; repeated or late agent events not counted)',
      labelNames: ['state'] as const,
      registers: [registry],
    })
  }
}
