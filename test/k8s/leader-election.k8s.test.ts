import * as k8s from '@kubernetes/client-node'
import { eventually } from './support/fixtures'
import { describeOnKubeServers } from './support/suite'

const RECONCILE_MESSAGES = ['Allocated ports', 'Created Service', 'Created Pod', 'Agent reachable']

describeOnKubeServers('Operator leader election', (suite) => {
  suite.it('lets only the Lease holder reconcile and hands over when it stops', async () => {
    const cluster = suite.cluster()
    const namespace = await suite.namespace()
    const leases = suite.kubeConfig().makeApiClient(k8s.CoordinationV1Api)
    const holder = async () =>
      (await leases.readNamespacedLease({ namespace, name: 'idplane-operator' })).spec?.holderIdentity

    // The harness's 3-second Lease is shorter than the stalls of a CI machine with both cores busy: a leader whose
    // renewals are late by that much rightly loses the Lease, which is not what this test is about. Production's
    // defaults (15 s, renewed within 10 s) are nearer these; the handover below comes from the release, not expiry.
    const lease = { OPERATOR_LEASE_DURATION_SECONDS: '15', OPERATOR_LEASE_RENEW_DEADLINE_MS: '10000' }
    const a = await suite.startOperator(suite.operatorEnv(namespace, { POD_NAME: 'operator-a', ...lease }))
    await eventually(async () => a.operator.isLeader(), { what: 'operator-a leading' })
    const b = await suite.startOperator(suite.operatorEnv(namespace, { POD_NAME: 'operator-b', ...lease }))

    await cluster.createAgent(namespace, 'first')
    await eventually(async () => (await cluster.getAgent(namespace, 'first'))?.status?.phase === 'Ready', {
      what: 'first Ready',
    })
    expect(await holder()).toBe('operator-a')
    expect(b.operator.isLeader()).toBe(false)
    expect(b.logs.filter((entry) => RECONCILE_MESSAGES.includes(String(entry.msg)))).toEqual([])
    const standbyMetrics = await (await fetch(`http://127.0.0.1:${b.metricsPort}/metrics`)).text()
    expect(standbyMetrics).toMatch(/idplane_operator_leader 0/)
    expect(standbyMetrics).not.toMatch(/idplane_operator_reconciles_total\{/)

    const stoppedAt = Date.now()
    await a.stop()
    await eventually(async () => b.operator.isLeader(), { what: 'operator-b leading', timeoutMs: 10_000 })
    const handoverMs = Date.now() - stoppedAt
    expect(await holder()).toBe('operator-b')

    await cluster.createAgent(namespace, 'second')
    const second = await eventually(
      async () => {
        const agent = await cluster.getAgent(namespace, 'second')
        return agent?.status?.phase === 'Ready' ? agent : undefined
      },
      { what: 'second Ready' },
    )
    expect(second.status).toMatchObject({ adminPort: 8003, inboundPort: 9003 })
    expect(b.logs.map((entry) => entry.msg)).toEqual(expect.arrayContaining(['Acquired Lease', 'Created Pod']))
    console.log(`${suite.kind}: operator-b took over ${handoverMs} ms after operator-a released the Lease`)
  })

  suite.it('takes over from a leader that vanished without releasing, once the lease duration passed', async () => {
    const cluster = suite.cluster()
    const namespace = await suite.namespace()
    const leases = suite.kubeConfig().makeApiClient(k8s.CoordinationV1Api)
    const now = new k8s.V1MicroTime(Date.now())
    await leases.createNamespacedLease({
      namespace,
      body: {
        metadata: { name: 'idplane-operator', namespace },
        spec: {
          holderIdentity: 'crashed-replica',
          leaseDurationSeconds: 2,
          acquireTime: now,
          renewTime: now,
          leaseTransitions: 0,
        },
      },
    })
    const started = Date.now()
    const b = await suite.startOperator(suite.operatorEnv(namespace, { POD_NAME: 'operator-b' }))
    await cluster.createAgent(namespace, 'acme')
    await eventually(async () => b.operator.isLeader(), { what: 'operator-b leading', timeoutMs: 10_000 })
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000)
    await eventually(async () => (await cluster.getAgent(namespace, 'acme'))?.status?.phase === 'Ready', {
      what: 'acme Ready',
    })
    const lease = await leases.readNamespacedLease({ namespace, name: 'idplane-operator' })
    expect(lease.spec).toMatchObject({ holderIdentity: 'operator-b', leaseTransitions: 1 })
  })
})
