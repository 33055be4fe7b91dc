import { eventually } from './support/fixtures'
import { describeOnKubeServers } from './support/suite'

describeOnKubeServers('OrgAgent provisioning', (suite) => {
  suite.it('reaches Ready with its controller endpoint, ports 8002/9002, a Pod and a Service', async () => {
    const cluster = suite.cluster()
    const namespace = await suite.namespace()
    const { logs, metricsPort } = await suite.startOperator(suite.operatorEnv(namespace))
    await cluster.createAgent(namespace, 'acme')

    const agent = await eventually(
      async () => {
        const current = await cluster.getAgent(namespace, 'acme')
        return current?.status?.phase === 'Ready' ? current : undefined
      },
      { what: 'OrgAgent acme Ready' },
    )

    expect(agent.status).toMatchObject({
      phase: 'Ready',
      adminPort: 8002,
      inboundPort: 9002,
      controllerEndpoint: `http://${suite.podIP}:8002`,
      podName: 'acme',
      serviceName: 'acme',
      observedGeneration: 1,
    })
    expect(agent.status?.conditions?.find((condition) => condition.type === 'Ready')).toMatchObject({
      status: 'True',
      reason: 'AgentReachable',
      observedGeneration: 1,
    })
    expect(agent.metadata.finalizers).toEqual(['idplane.io/ports'])

    const pod = await cluster.findPod(namespace, 'acme')
    expect(pod?.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'OrgAgent', name: 'acme', uid: agent.metadata.uid, controller: true }),
    ])
    const service = await cluster.findService(namespace, 'acme')
    expect(service?.spec?.ports?.map((port) => [port.name, port.port])).toEqual([
      ['admin', 8002],
      ['inbound', 9002],
    ])
    expect(await cluster.portCounters(namespace)).toMatchObject({ adminPort: '8002', inboundPort: '9002' })

    // The env the process kubelet resolved: secretKeyRef values and the operator's own variables.
    const env = (await (await fetch(`http://${suite.podIP}:8002/env`)).json()) as Record<string, string>
    expect(env).toMatchObject({
      AGENT_API_KEY: 'api-key-acme',
      AGENT_WALLET_KEY: 'wallet-key-acme',
      AGENT_LABEL: 'Agent of acme',
      AGENT_ADMIN_PORT: '8002',
      AGENT_INBOUND_PORT: '9002',
      AGENT_ENDPOINT: `http://acme.${namespace}.svc:9002`,
    })

    const messages = logs.map((entry) => entry.msg)
    expect(messages).toEqual(
      expect.arrayContaining([
        'Acquired Lease',
        'Allocated ports',
        'Created Service',
        'Created Pod',
        'Agent reachable',
      ]),
    )
    expect(logs.find((entry) => entry.msg === 'Created Service')).toMatchObject({
      orgAgent: 'acme',
      namespace,
      service: 'acme',
    })

    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()
    expect(metrics).toMatch(/idplane_operator_reconciles_total\{result="success"\} [1-9]/)
    expect(metrics).toMatch(/idplane_operator_agents\{phase="Ready"\} 1/)
    expect(metrics).toMatch(/idplane_operator_reconcile_duration_seconds_count [1-9]/)
    expect((await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).status).toBe(200)
  })
})
