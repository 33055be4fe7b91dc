import type * as k8s from '@kubernetes/client-node'
import type { Logger } from '@idplane/common'
import type { OrgAgent } from '@idplane/common/orgagent.types'
import { isNotFound } from '../kube/api-errors'
import type { PortAllocator } from '../ports/allocator'
import type { OrgAgentClient } from './orgagent-client'
import { podName, serviceName } from './resources'

/** Holds an OrgAgent until its port record is released (the one piece of its state outside its own objects). */
export const PORTS_FINALIZER = 'idplane.io/ports'

export function hasFinalizer(agent: OrgAgent): boolean {
  return (agent.metadata.finalizers ?? []).includes(PORTS_FINALIZER)
}

/** Adds the finalizer; the resourceVersion precondition makes a concurrent change a 409 (retried). */
export async function addFinalizer(agents: OrgAgentClient, agent: OrgAgent): Promise<OrgAgent> {
  const finalizers = [...(agent.metadata.finalizers ?? []), PORTS_FINALIZER]
  return agents.patch(agent.metadata.namespace ?? '', agent.metadata.name ?? '', {
    metadata: { finalizers, resourceVersion: agent.metadata.resourceVersion },
  })
}

export interface FinalizeDependencies {
  agents: OrgAgentClient
  core: k8s.CoreV1Api
  allocator: PortAllocator
  logger: Logger
}

/**
 * Deletes the Pod and Service (garbage collection would too, but only where a controller manager runs, and the
 * ports must not be released while the agent still listens), releases the port record, then removes the
 * finalizer so the OrgAgent goes.
 */
export async function finalize(deps: FinalizeDependencies, agent: OrgAgent): Promise<void> {
  const namespace = agent.metadata.namespace ?? ''
  const log = deps.logger.child({ orgAgent: agent.metadata.name, namespace })
  if (!hasFinalizer(agent)) return
  await deleteIgnoringMissing(
    () => deps.core.deleteNamespacedPod({ name: podName(agent), namespace, gracePeriodSeconds: 0 }),
    () => log.info('Deleted Pod', { pod: podName(agent) }),
  )
  await deleteIgnoringMissing(
    () => deps.core.deleteNamespacedService({ name: serviceName(agent), namespace }),
    () => log.info('Deleted Service', { service: serviceName(agent) }),
  )
  await deps.allocator.release(agent.metadata.uid ?? '')
  log.info('Released ports', { adminPort: agent.status?.adminPort, inboundPort: agent.status?.inboundPort })
  const finalizers = (agent.metadata.finalizers ?? []).filter((finalizer) => finalizer !== PORTS_FINALIZER)
  try {
    await deps.agents.patch(namespace, agent.metadata.name ?? '', {
      metadata: {
        finalizers: finalizers.length > 0 ? finalizers : null,
        resourceVersion: agent.metadata.resourceVersion,
      },
    })
  } catch (error) {
    if (isNotFound(error)) return
    throw error
  }
  log.info('Removed finalizer', { finalizer: PORTS_FINALIZER })
}

async function deleteIgnoringMissing(remove: () => Promise<unknown>, onDeleted: () => void): Promise<void> {
  try {
    await remove()
    onDeleted()
  } catch (error) {
    if (!isNotFound(error)) throw error
  }
}
