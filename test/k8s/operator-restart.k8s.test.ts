import { eventually } from './support/fixtures'
import { removeCompiledOperator, startOperatorProcess, type OperatorProcess } from './support/operator-harness'
import { describeOnKubeServers } from './support/suite'

const COUNT = 20

afterAll(() => removeCompiledOperator())

describeOnKubeServers('Operator restart', (suite) => {
  suite.it(
    'converges after being killed in the middle of reconciling, without allocating new ports',
    async () => {
      const cluster = suite.cluster()
      const namespace = await suite.namespace()
      const env = suite.operatorEnv(namespace, { LOG_LEVEL: 'info' })
      const processes: OperatorProcess[] = []
      suite.defer(async () => {
        for (const running of processes) await running.kill()
      })
      const names = Array.from({ length: COUNT }, (_, index) => `agent-${index}`)
      await Promise.all(names.map((name) => cluster.createAgent(namespace, name)))

      const first = await startOperatorProcess(suite.kubeConfig(), env)
      processes.push(first)
      await eventually(async () => Number((await cluster.portCounters(namespace)).adminPort ?? 0) >= 8003, {
        intervalMs: 10,
        what: 'the first allocations',
      })
      await first.kill()
      const counterAtKill = Number((await cluster.portCounters(namespace)).adminPort)
      const statusAtKill = new Map(
        (await cluster.agents.list(namespace)).items
          .filter((agent) => agent.status?.adminPort !== undefined)
          .map((agent) => [agent.metadata.name, [agent.status?.adminPort, agent.status?.inboundPort]]),
      )
      expect(counterAtKill - 8001).toBeLessThan(COUNT)

      // Same identity, as when the kubelet restarts the operator's container.
      const second = await startOperatorProcess(suite.kubeConfig(), env)
      processes.push(second)
      const agents = await eventually(
        async () => {
          const list = await cluster.agents.list(namespace)
          return list.items.every((agent) => agent.status?.phase === 'Ready') ? list.items : undefined
        },
        { timeoutMs: 60_000, intervalMs: 200, what: 'every agent Ready after the restart' },
      )

      for (const agent of agents) {
        const before = statusAtKill.get(agent.metadata.name)
        if (before) expect([agent.status?.adminPort, agent.status?.inboundPort]).toEqual(before)
      }
      const admin = agents.map((agent) => agent.status?.adminPort).sort()
      expect(admin).toEqual(Array.from({ length: COUNT }, (_, index) => 8002 + index))
      expect(await cluster.portCounters(namespace)).toMatchObject({
        adminPort: String(8001 + COUNT),
        inboundPort: String(9001 + COUNT),
      })
      console.log(
        `${suite.kind}: killed with ${counterAtKill - 8001} allocations in the ConfigMap and ${statusAtKill.size} in status; ` +
          `after the restart ${COUNT} agents Ready, no port allocated twice or skipped`,
      )
      await second.terminate()
      expect(second.child.exitCode).toBe(0)
      expect(second.output.some((line) => line.includes('"msg":"Released Lease"'))).toBe(true)
    },
    180_000,
  )
})
