import { Counter, Histogram, type Registry, type RegistryContentType } from 'prom-client'

/** Outcomes of one key-generation job run. */
export type CredDefJobOutcome = 'created' | 'adopted' | 'failed' | 'retried' | 'stale'

/**
 * Credential-definition jobs: `idplane_api_cred_def_jobs_total{outcome}` counts job runs by outcome (`adopted`: the
 * agent had already registered it, found after a restart) and `idplane_api_cred_def_job_duration_seconds{outcome}`
 * their time (mostly the agent's key generation).
 */
export class CredDefMetrics {
  public readonly jobs: Counter<'outcome'>
  public readonly jobDuration: Histogram<'outcome'>

  public constructor(registry: Registry<RegistryContentType>) {
    this.jobs = new Counter({
      name: 'idplane_api_cred_def_jobs_total',
      help: 'Credential definition key-generation job runs by outcome (created, adopted, failed, retried, stale)',
      labelNames: ['outcome'],
      registers: [registry],
    })
    this.jobDuration = new Histogram({
      name: 'idplane_api_cred_def_job_duration_seconds',
      help: 'Time one credential definition job run took (agent key generation and registration), by outcome',
      labelNames: ['outcome'],
      buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
      registers: [registry],
    })
  }
}
