import type { AnyAdminOperation } from '../operation'
import { AGENT_OPERATIONS } from './agent'
import { ANONCREDS_OPERATIONS } from './anoncreds'
import { CONNECTION_OPERATIONS } from './connections'
import { CREDENTIAL_OPERATIONS } from './credentials'
import { DID_OPERATIONS } from './dids'
import { MESSAGE_OPERATIONS } from './messages'
import { OPENID4VC_OPERATIONS } from './openid4vc'
import { PROOF_OPERATIONS } from './proofs'
import { TENANT_OPERATIONS } from './tenants'

/**
 * Every admin operation of the agent, by kind. A new kind is a file beside this one and a line here; the agent then
 * fails to type-check (and to start) until its admin app has a controller for the kind (docs/agent.md).
 */
export const ADMIN_OPERATION_KINDS = {
  agent: AGENT_OPERATIONS,
  dids: DID_OPERATIONS,
  connections: CONNECTION_OPERATIONS,
  messages: MESSAGE_OPERATIONS,
  credentials: CREDENTIAL_OPERATIONS,
  proofs: PROOF_OPERATIONS,
  anoncreds: ANONCREDS_OPERATIONS,
  tenants: TENANT_OPERATIONS,
  openid4vc: OPENID4VC_OPERATIONS,
} as const satisfies Record<string, Record<string, AnyAdminOperation>>

export type AdminOperationKinds = typeof ADMIN_OPERATION_KINDS

type UnionToIntersection<U> = (U extends unknown ? (arg: U) => void : never) extends (arg: infer I) => void ? I : never

/** Every admin operation by name: the kinds merged. */
export type AdminOperations = UnionToIntersection<AdminOperationKinds[keyof AdminOperationKinds]>

/**
 * The operations of all kinds in one collection by name.
 * @throws {Error} when two kinds declare the same name (caught by the unit test before anything runs)
 */
export function mergeOperationKinds<Kinds extends Record<string, Record<string, AnyAdminOperation>>>(
  kinds: Kinds,
): UnionToIntersection<Kinds[keyof Kinds]> {
  const merged: Record<string, AnyAdminOperation> = {}
  for (const [kind, operations] of Object.entries(kinds)) {
    for (const [name, operation] of Object.entries(operations)) {
      if (name in merged) throw new Error(`Admin operation ${name} of ${kind} is declared twice`)
      merged[name] = operation
    }
  }
  return merged as UnionToIntersection<Kinds[keyof Kinds]>
}

export const ADMIN_OPERATIONS: AdminOperations = mergeOperationKinds(ADMIN_OPERATION_KINDS)
