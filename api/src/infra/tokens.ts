import type { ServiceIdentifier } from 'inversify'

/** Inversify identifiers for values that are not classes (configuration, readiness probes, the ORM's em). */
export const TOKENS = {
  Config: Symbol.for('idplane.Config'),
  ReadinessChecks: Symbol.for('idplane.ReadinessChecks'),
} as const

/** A dependency whose health gates /health/ready (database, queue), or a capability it reports on (the ledger). */
export interface ReadinessCheck {
  name: string
  isHealthy(): Promise<boolean>
  /**
   * false: a failing check is shown as `degraded` (with `detail()`) but leaves the API ready, for a capability the
   * API refuses on its own while everything else keeps serving. @default true
   */
  isRequired?: boolean
  /** Why the last failing `isHealthy` failed, for a check that is not required. */
  detail?(): string | undefined
}

/**
 * A class whose constructor is private (built by its static factory, e.g. Database.open) used as a container
 * key. inversify 8 types keys as public constructors; at run time the class itself is the key, as for any class.
 */
export function factoryClassKey<T>(cls: { prototype: T }): ServiceIdentifier<T> {
  return cls as unknown as ServiceIdentifier<T>
}
