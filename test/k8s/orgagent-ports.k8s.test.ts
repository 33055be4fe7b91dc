import { eventually } from './support/fixtures'
import { describeOnKubeServers } from './support/suite'

// Twenty concurrent creations race for the same counters as fifty did; each extra agent only adds start-up time.
const COUNT = 20

describeOnKubeServers('OrgAgent port allocation', (suite) => {
  suite.it(
    `gives ${COUNT} OrgAgents created at once ${COUNT} distinct port pairs starting at 8002/9002`,
    async () => {
      const cluster = suite.cluster()
      const namespace = await suite.namespace()
      await suite.startOperator(suite.operatorEnv(namespace))
      const names = Array.from({ length: COUNT }, (_, index) => `agent-${String(index).padStart(2, '0')}`)

      const started = Date.now()
      await Promise.all(names.map((name) => cluster.createAgent(namespace, name)))
      const agents = await eventually(
        async () => {
          const list = await cluster.agents.list(namespace)
          const allocated = list.items.filter(
            (agent) => agent.status?.adminPort !== undefined && agent.status.inboundPort !== undefined,
          )
          return allocated.length === COUNT ? allocated : undefined
        },
        { timeoutMs: 60_000, intervalMs: 200, what: `${COUNT} allocations` },
      )
      const allocatedMs = Date.now() - started

      const admin = agents.map((agent) => agent.status?.adminPort ?? 0).sort((a, b) => a - b)
      const inbound = agents.map((agent) => agent.status?.inboundPort ?? 0).sort((a, b) => a - b)
      expect(admin).toEqual(Array.from({ length: COUNT }, (_, index) => 8002 + index))
      expect(inbound).toEqual(Array.from({ length: COUNT }, (_, index) => 9002 + index))
      // Each agent's pair is its own: admin 8002+n goes with inbound 9002+n.
      for (const agent of agents) expect((agent.status?.inboundPort ?? 0) - (agent.status?.adminPort ?? 0)).toBe(1000)
      expect(await cluster.portCounters(namespace)).toMatchObject({
        adminPort: String(8001 + COUNT),
        inboundPort: String(9001 + COUNT),
      })

      await eventually(
        async () => (await cluster.agents.list(namespace)).items.every((agent) => agent.status?.phase === 'Ready'),
        { timeoutMs: 120_000, intervalMs: 500, what: `${COUNT} agents Ready` },
      )
      console.log(
        `${suite.kind}: ${COUNT} agents got ports in ${allocatedMs} ms and were Ready in ${Date.now() - started} ms`,
      )
    },
    240_000,
  )
})
