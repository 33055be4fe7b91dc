import type * as k8s from '@kubernetes/client-node'
import type { Logger } from '@idplane/common'
import { ORGAGENT_KIND } from '@idplane/common/orgagent.types'
import type { OperatorConfig } from '../config'
import type { KubeApis } from '../kube/client'
import { RestartingInformer } from '../kube/informer'
import type { OperatorMetrics } from '../metrics'
import { configMapStore, PortAllocator } from '../ports/allocator'
import { WorkQueue } from '../workqueue'
import type { AgentProbe } from '@idplane/common/agent-contract/probe'
import { OrgAgentClient, type OrgAgentObject } from './orgagent-client'
import { OrgAgentReconciler } from './reconciler'
import { MANAGED_BY } from './resources'

const CHILD_SELECTOR = `app.kubernetes.io/managed-by=${MANAGED_BY}`

function keyOf(object: k8s.KubernetesObject): string {
  return `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`
}

/** The key of the OrgAgent controlling a Pod or Service, if any. */
function ownerKey(object: k8s.KubernetesObject): string | undefined {
  const owner = object.metadata?.ownerReferences?.find(
    (reference) => reference.kind === ORGAGENT_KIND && reference.controller,
  )
  return owner ? `${object.metadata?.namespace ?? ''}/${owner.name}` : undefined
}

/**
 * Wires informers to the work queue and the queue to the reconciler. Informer handlers only enqueue
 * `namespace/name` of the OrgAgent concerned; the reconciler reads current state itself.
 */
export class OrgAgentController {
  private readonly agentInformer: RestartingInformer<OrgAgentObject>
  private readonly childInformers: RestartingInformer<k8s.KubernetesObject>[]
  private readonly queue: WorkQueue
  private readonly reconciler: OrgAgentReconciler
  private resyncTimer: NodeJS.Timeout | undefined
  private readonly resyncSeconds: number

  public constructor(
    kubeConfig: k8s.KubeConfig,
    apis: KubeApis,
    config: OperatorConfig,
    private readonly logger: Logger,
    metrics: OperatorMetrics,
    probe: AgentProbe,
  ) {
    const agents = new OrgAgentClient(apis.custom)
    const namespace = config.watchNamespace
    this.agentInformer = new RestartingInformer<OrgAgentObject>(kubeConfig, {
      kind: ORGAGENT_KIND,
      path: agents.path(namespace),
      list: () => agents.listObjects(namespace),
      logger,
    })
    const corePath = (plural: string) => (namespace ? `/api/v1/namespaces/${namespace}/${plural}` : `/api/v1/${plural}`)
    this.childInformers = [
      new RestartingInformer<k8s.V1Pod>(kubeConfig, {
        kind: 'Pod',
        path: corePath('pods'),
        labelSelector: CHILD_SELECTOR,
        list: () =>
          namespace
            ? apis.core.listNamespacedPod({ namespace, labelSelector: CHILD_SELECTOR })
            : apis.core.listPodForAllNamespaces({ labelSelector: CHILD_SELECTOR }),
        logger,
      }),
      new RestartingInformer<k8s.V1Service>(kubeConfig, {
        kind: 'Service',
        path: corePath('services'),
        labelSelector: CHILD_SELECTOR,
        list: () =>
          namespace
            ? apis.core.listNamespacedService({ namespace, labelSelector: CHILD_SELECTOR })
            : apis.core.listServiceForAllNamespaces({ labelSelector: CHILD_SELECTOR }),
        logger,
      }),
    ]
    this.queue = new WorkQueue({
      workers: config.workers,
      logger,
      onResult: (outcome, seconds) => metrics.observeReconcile(outcome, seconds),
    })
    this.reconciler = new OrgAgentReconciler({
      agents,
      core: apis.core,
      allocator: new PortAllocator(configMapStore(apis.core, config.operatorNamespace, config.portsConfigMap), {
        name: config.portsConfigMap,
        namespace: config.operatorNamespace,
        logger,
      }),
      probe,
      logger,
      options: {
        pollAttempts: config.agentPoll.attempts,
        pollIntervalMs: config.agentPoll.intervalMs,
        pollTimeoutMs: config.agentPoll.timeoutMs,
        urlTemplate: config.agentPoll.urlTemplate,
      },
    })
    this.agentInformer.onEvent((_event, agent) => this.queue.add(keyOf(agent)))
    for (const informer of this.childInformers) {
      informer.onEvent((_event, child) => {
        const key = ownerKey(child)
        if (key) this.queue.add(key)
      })
    }
    metrics.trackPhases(() => this.agentInformer.list().map((agent) => agent.status?.phase))
    this.resyncSeconds = config.resyncSeconds
  }

  public async start(): Promise<void> {
    this.queue.start((key) => this.reconciler.reconcile(key))
    await Promise.all([this.agentInformer, ...this.childInformers].map((informer) => informer.start()))
    this.resyncTimer = setInterval(() => {
      for (const agent of this.agentInformer.list()) this.queue.add(keyOf(agent))
    }, this.resyncSeconds * 1000)
    this.logger.info('Started OrgAgent controller', { agents: this.agentInformer.list().length })
  }

  /** Stops the informers and waits for running reconciles to finish. */
  public async stop(): Promise<void> {
    if (this.resyncTimer) clearInterval(this.resyncTimer)
    await Promise.all([this.agentInformer, ...this.childInformers].map((informer) => informer.stop()))
    await this.queue.shutdown()
    this.logger.info('Stopped OrgAgent controller')
  }

  public hasSynced(): boolean {
    return [this.agentInformer, ...this.childInformers].every((informer) => informer.hasSynced())
  }
}
