import { startFakeKubeApiServer, type FakeKubeApiServer } from '../helpers/fake-kube-apiserver'
import { startProcessKubelet, type ProcessKubelet } from '../helpers/process-kubelet'
import { stubAgentCommand } from '../helpers/stub-agent'
import { Cluster, eventually } from './support/fixtures'
import { createNamespace } from './support/kube-servers'
import { operatorEnv, startOperator, type RunningOperator } from './support/operator-harness'

/** Fake server only: it can fail every request on purpose, which a real kube-apiserver cannot be asked to do. */
describe('Operator informers (fake kube-apiserver)', () => {
  let server: FakeKubeApiServer
  let kubelet: ProcessKubelet
  let operator: RunningOperator | undefined
  const podIP = `127.${1 + (process.pid % 250)}.0.${1 + Math.floor(Math.random() * 250)}`

  beforeAll(async () => {
    server = await startFakeKubeApiServer()
    kubelet = await startProcessKubelet({
      kubeConfig: server.kubeConfig(),
      podIP,
      command: () => stubAgentCommand('healthy', podIP),
    })
  })

  afterAll(async () => {
    await operator?.stop()
    await kubelet.stop()
    await server.stop()
  })

  it('restarts its watches after the API server failed for a while and keeps reconciling', async () => {
    const cluster = new Cluster(server.kubeConfig())
    const namespace = await createNamespace(server.kubeConfig())
    operator = await startOperator(
      server.kubeConfig(),
      operatorEnv(namespace, {
        OPERATOR_AGENT_URL_TEMPLATE: `http://${podIP}:{adminPort}`,
        OPERATOR_LEASE_RENEW_DEADLINE_MS: '2500',
      }),
    )
    await cluster.createAgent(namespace, 'before')
    await eventually(async () => (await cluster.getAgent(namespace, 'before'))?.status?.phase === 'Ready', {
      what: 'before Ready',
    })

    server.failRequestsFor(1500)
    const running = operator
    await eventually(async () => running.logs.some((entry) => entry.msg === 'Watch failed, restarting informer'), {
      what: 'a watch failure',
    })
    // The operator's three informers and the kubelet's one are watching again.
    await eventually(async () => server.watchCount() >= 4, { timeoutMs: 15_000, what: 'watches re-established' })

    await cluster.createAgent(namespace, 'after')
    const after = await eventually(
      async () => {
        const agent = await cluster.getAgent(namespace, 'after')
        return agent?.status?.phase === 'Ready' ? agent : undefined
      },
      { what: 'after Ready' },
    )
    expect(after.status).toMatchObject({ adminPort: 8003, inboundPort: 9003 })
    expect(running.operator.isLeader()).toBe(true)
    for (const pod of (await cluster.core.listNamespacedPod({ namespace })).items) {
      await cluster.core.deleteNamespacedPod({ namespace, name: pod.metadata?.name ?? '' })
    }
  }, 60_000)
})
