import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import { ORGAGENT_PHASES, type OrgAgentPhase } from '@idplane/common/orgagent.types'

export type ReconcileOutcome = 'success' | 'requeue' | 'error'

/** The operator's Prometheus metrics, in a registry of its own (two operators in one test process do not clash). */
export class OperatorMetrics {
  public readonly registry = new Registry()
  private readonly reconciles: Counter<'result'>
  private readonly errors: Counter
  private readonly duration: Histogram
  private readonly leader: Gauge
  private phases: () => readonly (OrgAgentPhase | undefined)[] = () => []

  public constructor(options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry]
    this.reconciles = new Counter({
      name: 'idplane_operator_reconciles_total',
      help: 'OrgAgent reconciles by result (success, requeue, error)',
      labelNames: ['result'],
      registers,
    })
    this.errors = new Counter({
      name: 'idplane_operator_reconcile_errors_total',
      help: 'OrgAgent reconciles that failed',
      registers,
    })
    this.duration = new Histogram({
      name: 'idplane_operator_reconcile_duration_seconds',
      help: 'Time spent in one OrgAgent reconcile',
      buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    })
    this.leader = new Gauge({
      name: 'idplane_operator_leader',
      help: '1 while this replica holds the leader Lease',
      registers,
    })
    const phases = () => this.phases()
    new Gauge({
      name: 'idplane_operator_agents',
      help: 'OrgAgents by status phase',
      labelNames: ['phase'],
      registers,
      collect() {
        const counts = new Map<string, number>(ORGAGENT_PHASES.map((phase) => [phase, 0]))
        for (const phase of phases()) counts.set(phase ?? 'Pending', (counts.get(phase ?? 'Pending') ?? 0) + 1)
        this.reset()
        for (const [phase, count] of counts) this.set({ phase }, count)
      },
    })
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'idplane_operator_' })
  }

  public observeReconcile(outcome: ReconcileOutcome, seconds: number): void {
    this.reconciles.inc({ result: outcome })
    if (outcome === 'error') this.errors.inc()
    this.duration.observe(seconds)
  }

  public setLeader(isLeader: boolean): void {
    this.leader.set(isLeader ? 1 : 0)
  }

  /** Source of the agents-by-phase gauge (the informer cache while leading). */
  public trackPhases(source: () => readonly (OrgAgentPhase | undefined)[]): void {
    this.phases = source
  }
}
