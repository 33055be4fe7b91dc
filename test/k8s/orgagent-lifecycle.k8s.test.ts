import type { OrgAgent } from '../../common/orgagent.types'
import { eventually, type Cluster } from './support/fixtures'
import { describeOnKubeServers, UNREACHABLE_PREFIX } from './support/suite'

async function waitForPhase(
  cluster: Cluster,
  namespace: string,
  name: string,
  phase: string,
  timeoutMs = 20_000,
): Promise<OrgAgent> {
  return eventually(
    async () => {
      const agent = await cluster.getAgent(namespace, name)
      return agent?.status?.phase === phase ? agent : undefined
    },
    { what: `OrgAgent ${name} ${phase}`, timeoutMs },
  )
}

const readyCondition = (agent: OrgAgent | undefined) =>
  agent?.status?.conditions?.find((condition) => condition.type === 'Ready')

describeOnKubeServers('OrgAgent lifecycle', (suite) => {
  suite.it('marks an agent that never answers Failed after 6 polls, with no endpoint', async () => {
    const cluster = suite.cluster()
    const namespace = await suite.namespace()
    await suite.startOperator(suite.operatorEnv(namespace))
    const name = `${UNREACHABLE_PREFIX}acme`
    await cluster.createAgent(namespace, name)

    const waiting = await eventually(async () => {
      const agent = await cluster.getAgent(namespace, name)
      return readyCondition(agent)?.reason === 'WaitingForAgent' && (agent?.status?.pollAttempts ?? 0) >= 1
        ? agent
        : undefined
    })
    const failed = await waitForPhase(cluster, namespace, name, 'Failed')

    expect(failed.status?.pollAttempts).toBe(6)
    expect(failed.status?.controllerEndpoint).toBeUndefined()
    expect(failed.status?.adminPort).toBe(8002)
    expect(readyCondition(failed)).toMatchObject({ status: 'False', reason: 'AgentUnreachable' })
    expect(readyCondition(failed)?.message).toContain('HTTP 503')
    // Ready stayed False from WaitingForAgent to AgentUnreachable: the transition time did not move.
    expect(readyCondition(failed)?.lastTransitionTime).toBe(readyCondition(waiting)?.lastTransitionTime)
    // Failed is final: no more polls.
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect((await cluster.getAgent(namespace, name))?.status?.pollAttempts).toBe(6)
  })

  suite.it('removes the Pod, the Service, the port record and the finalizer when the OrgAgent is deleted', async () => {
    const cluster = suite.cluster()
    const namespace = await suite.namespace()
    const { logs } = await suite.startOperator(suite.operatorEnv(namespace))
    await cluster.createAgent(namespace, 'acme')
    const ready = await waitForPhase(cluster, namespace, 'acme', 'Ready')
    expect(await cluster.portCounters(namespace)).toHaveProperty([`agent.${ready.metadata.uid}`], '8002,9002')

    await cluster.deleteAgent(namespace, 'acme')

    await eventually(async () => (await cluster.getAgent(namespace, 'acme')) === undefined, { what: 'OrgAgent gone' })
    await eventually(async () => (await cluster.findPod(namespace, 'acme')) === undefined, { what: 'Pod gone' })
    expect(await cluster.findService(namespace, 'acme')).toBeUndefined()
    const counters = await cluster.portCounters(namespace)
    expect(counters).not.toHaveProperty([`agent.${ready.metadata.uid}`])
    expect(counters).toMatchObject({ adminPort: '8002', inboundPort: '9002' })
    expect(logs.map((entry) => entry.msg)).toEqual(
      expect.arrayContaining(['Deleted Pod', 'Deleted Service', 'Released ports', 'Removed finalizer']),
    )
    await eventually(async () => !suite.kubelet().runningPods().includes(`${namespace}/acme`), {
      what: 'agent process stopped',
    })
  })

  suite.it('recreates a deleted Pod and gets Ready again on the same ports', async () => {
    const cluster = suite.cluster()
    const namespace = await suite.namespace()
    await suite.startOperator(suite.operatorEnv(namespace))
    await cluster.createAgent(namespace, 'acme')
    await waitForPhase(cluster, namespace, 'acme', 'Ready')
    const before = await cluster.findPod(namespace, 'acme')

    await cluster.core.deleteNamespacedPod({ namespace, name: 'acme', gracePeriodSeconds: 0 })

    const after = await eventually(
      async () => {
        const pod = await cluster.findPod(namespace, 'acme')
        return pod && pod.metadata?.uid !== before?.metadata?.uid ? pod : undefined
      },
      { what: 'a new Pod' },
    )
    expect(after.spec?.containers[0].ports?.map((port) => port.containerPort)).toEqual([8002, 9002])
    const ready = await eventually(
      async () => {
        const agent = await cluster.getAgent(namespace, 'acme')
        return agent?.status?.phase === 'Ready' && (agent.status.pollAttempts ?? 0) >= 1 ? agent : undefined
      },
      { what: 'Ready again' },
    )
    expect(ready.status).toMatchObject({
      adminPort: 8002,
      inboundPort: 9002,
      controllerEndpoint: `http://${suite.podIP}:8002`,
    })
  })

  suite.it('replaces the Pod when the image in the spec changes', async () => {
    const cluster = suite.cluster()
    const namespace = await suite.namespace()
    const { logs } = await suite.startOperator(suite.operatorEnv(namespace))
    await cluster.createAgent(namespace, 'acme')
    await waitForPhase(cluster, namespace, 'acme', 'Ready')
    const before = await cluster.findPod(namespace, 'acme')
    expect(before?.spec?.containers[0].image).toBe('idplane/idplane:test')

    await cluster.agents.patch(namespace, 'acme', { spec: { image: 'idplane/idplane:next' } })

    const after = await eventually(
      async () => {
        const pod = await cluster.findPod(namespace, 'acme')
        return pod && pod.metadata?.uid !== before?.metadata?.uid ? pod : undefined
      },
      { what: 'a replaced Pod' },
    )
    expect(after.spec?.containers[0].image).toBe('idplane/idplane:next')
    const ready = await eventually(
      async () => {
        const agent = await cluster.getAgent(namespace, 'acme')
        return agent?.status?.phase === 'Ready' && agent.status.observedGeneration === 2 ? agent : undefined
      },
      { what: 'Ready at generation 2' },
    )
    expect(ready.status).toMatchObject({ adminPort: 8002, inboundPort: 9002 })
    expect(logs.find((entry) => entry.msg === 'Deleted Pod')).toMatchObject({ reason: 'spec changed' })
  })
})
