import type * as k8s from '@kubernetes/client-node'
import type { Logger } from '@idplane/common'
import type { OperatorConfig } from './config'
import { HealthServer } from './health'
import { makeKubeApis } from './kube/client'
import { LeaderElector } from './leader/lease'
import { OperatorMetrics } from './metrics'
import { probeAgent, type AgentProbe } from '@idplane/common/agent-contract/probe'
import { OrgAgentController } from './orgagent/controller'

export interface OperatorOptions {
  config: OperatorConfig
  kubeConfig: k8s.KubeConfig
  logger: Logger
  probe?: AgentProbe
  /** Process metrics (CPU, heap, ...) next to the operator's own. @default false */
  defaultMetrics?: boolean
}

/**
 * One operator replica: the health/metrics server always, the OrgAgent controller only while this replica
 * holds the leader Lease. A replica that loses the Lease stops its controller and campaigns again.
 */
export class Operator {
  private readonly metrics: OperatorMetrics
  private readonly health: HealthServer
  private readonly elector: LeaderElector
  private controller: OrgAgentController | undefined
  private readonly logger: Logger

  public constructor(private readonly options: OperatorOptions) {
    const { config, kubeConfig } = options
    this.logger = options.logger.child({ identity: config.identity })
    this.metrics = new OperatorMetrics({ defaultMetrics: options.defaultMetrics })
    this.health = new HealthServer(this.metrics, () => !this.controller || this.controller.hasSynced(), this.logger)
    this.elector = new LeaderElector(
      makeKubeApis(kubeConfig).coordination,
      { ...config.lease, identity: config.identity, logger: this.logger },
      {
        onStartedLeading: () => this.startController(),
        onStoppedLeading: () => this.stopController(),
      },
    )
  }

  /** Starts the metrics server and campaigns for the Lease; resolves with the metrics port. */
  public async start(): Promise<number> {
    const port = await this.health.listen(this.options.config.metricsPort, this.options.config.metricsHost)
    this.elector.start()
    this.logger.info('Started operator', {
      metricsPort: port,
      watchNamespace: this.options.config.watchNamespace ?? '(all)',
      lease: `${this.options.config.lease.namespace}/${this.options.config.lease.name}`,
    })
    return port
  }

  /** Stops reconciling, releases the Lease and closes the metrics server. */
  public async stop(): Promise<void> {
    await this.elector.stop()
    await this.stopController()
    await this.health.close()
    this.logger.info('Stopped operator')
  }

  public isLeader(): boolean {
    return this.elector.isLeader()
  }

  private async startController(): Promise<void> {
    this.metrics.setLeader(true)
    const apis = makeKubeApis(this.options.kubeConfig)
    const controller = new OrgAgentController(
      this.options.kubeConfig,
      apis,
      this.options.config,
      this.logger,
      this.metrics,
      this.options.probe ?? probeAgent,
    )
    this.controller = controller
    await controller.start()
  }

  private async stopController(): Promise<void> {
    this.metrics.setLeader(false)
    const controller = this.controller
    this.controller = undefined
    await controller?.stop()
  }
}
