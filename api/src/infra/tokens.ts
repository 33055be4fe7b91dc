/** Inversify identifiers for values that are not classes (configuration, readiness probes, the ORM's em). */
export const TOKENS = {
  Config: Symbol.for('idplane.Config'),
  ReadinessChecks: Symbol.for('idplane.ReadinessChecks'),
} as const

/** A dependency whose health gates /health/ready (database, queue). */
export interface ReadinessCheck {
  name: string
  isHealthy(): Promise<boolean>
}
