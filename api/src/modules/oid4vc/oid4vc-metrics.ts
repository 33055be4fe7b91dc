import { Counter, type Registry, type RegistryContentType } from 'prom-client'

/** OpenID4VC issuance metrics (STYLE.md naming), as the DIDComm exchanges have them. */
export class Oid4vcMetrics {
  public readonly stateChanges: Counter<'state'>

  public constructor(registry: Registry<RegistryContentType>) {
    this.stateChanges = new Counter({
      name: 'idplane_api_oid4vc_issuance_state_changes_total',
      help: 'OID4VCI issuance sessions that reached a state (each actual change once; repeated or late agent events not counted)',
      labelNames: ['state'] as const,
      registers: [registry],
    })
  }
}
