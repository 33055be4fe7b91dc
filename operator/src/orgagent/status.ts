import type { Condition, ConditionStatus, OrgAgentPhase, OrgAgentStatus } from '@idplane/common/orgagent.types'
import { CONDITION_PORTS_ALLOCATED, CONDITION_READY, FAILED_REASONS } from './conditions'

export interface ConditionInput {
  type: string
  status: ConditionStatus
  reason: string
  message: string
  observedGeneration?: number
}

export function findCondition(conditions: readonly Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((condition) => condition.type === type)
}

/**
 * Returns `conditions` with `next` set. lastTransitionTime changes only when the condition's status flips
 * (or the condition is new); reason, message and observedGeneration follow `next` every time.
 */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  next: ConditionInput,
  now: Date,
): Condition[] {
  const existing = findCondition(conditions, next.type)
  const lastTransitionTime =
    existing && existing.status === next.status
      ? existing.lastTransitionTime
      : now.toISOString().replace(/\.\d+Z$/, 'Z')
  const updated: Condition = { ...next, lastTransitionTime }
  if (!existing) return [...(conditions ?? []), updated]
  return (conditions ?? []).map((condition) => (condition.type === next.type ? updated : condition))
}

/** The phase shown by `kubectl get orgagents`, derived from the conditions so that both always agree. */
export function phaseFromConditions(conditions: readonly Condition[] | undefined, isDeleting: boolean): OrgAgentPhase {
  if (isDeleting) return 'Terminating'
  const ready = findCondition(conditions, CONDITION_READY)
  if (ready?.status === 'True') return 'Ready'
  if (ready?.status === 'False' && FAILED_REASONS.includes(ready.reason)) return 'Failed'
  if (findCondition(conditions, CONDITION_PORTS_ALLOCATED)?.status === 'True') return 'Provisioning'
  return 'Pending'
}

/** True when writing `next` over `current` would change nothing (so no status patch is sent). */
export function isSameStatus(current: OrgAgentStatus | undefined, next: OrgAgentStatus): boolean {
  return stableJson(current ?? {}) === stableJson(next)
}

/** JSON with object keys sorted and null/undefined fields dropped (the API server may reorder keys). */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, inner]) => inner !== undefined && inner !== null)
      .sort(([a], [b]) => a.localeCompare(b))
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${stableJson(inner)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/**
 * The merge patch turning `current` into `next`: status is owned by the operator, so fields absent from
 * `next` are removed (null) and the conditions list is replaced whole.
 */
export function statusPatch(current: OrgAgentStatus | undefined, next: OrgAgentStatus): Record<string, unknown> {
  const patch: Record<string, unknown> = {}
  for (const key of Object.keys(current ?? {})) patch[key] = null
  for (const [key, value] of Object.entries(next)) patch[key] = value === undefined ? null : value
  return patch
}
