import type { ServiceIdentifier } from 'inversify'

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

/**
 * A class whose constructor is private (built by its static factory, e.g. Database.open) used as a container
 * key. inversify 8 types keys as public constructors; at run time the class itself is the key, as for any class.
 */
export function factoryClassKey<T>(cls: { prototype: T }): ServiceIdentifier<T> {
  return cls as unknown as ServiceIdentifier<T>
}
