import { Counter, Histogram, type Registry, type RegistryContentType } from 'prom-client'

/** Proof exchange metrics (STYLE.md naming): state changes the platform recorded, and verification latency. */
export class ProofMetrics {
  public readonly stateChanges: Counter<'state'>
  public readonly verifyDuration: Histogram<'result'>

  public constructor(registry: Registry<RegistryContentType>) {
    this.stateChanges = new Counter({
      name: 'idplane_api_proof_state_changes_total',
      help: 'Proof records that reached a state (each actual change once; repeated or late agent events not counted)',
      labelNames: ['state'] as const,
      registers: [registry],
    })
    this.verifyDuration = new Histogram({
      name: 'idplane_api_proof_verify_duration_seconds',
      help: "Time of POST /proofs/:proofId/verify's agent call, by result (verified, not-verified, error)",
      labelNames: ['result'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    })
  }
}
