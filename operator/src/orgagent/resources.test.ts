import type { OrgAgent, OrgAgentSpec } from '@idplane/common/orgagent.types'
import { ANNOTATION_POD_SPEC_HASH, agentEndpoint, buildPod, buildService, servicePortsDiffer } from './resources'

function anOrgAgent(spec: Partial<OrgAgentSpec> = {}): OrgAgent {
  return {
    apiVersion: 'idplane.io/v1alpha1',
    kind: 'OrgAgent',
    metadata: { name: 'acme', namespace: 'tenants', uid: 'uid-1', generation: 1 },
    spec: { orgId: 'org-1', label: 'Acme', image: 'idplane/idplane:1.0.0', secretName: 'acme-agent', ...spec },
  }
}

const ports = { adminPort: 8002, inboundPort: 9002 }
const envOf = (agent: OrgAgent) => buildPod(agent, ports).spec?.containers[0].env ?? []
const envValue = (agent: OrgAgent, name: string) => envOf(agent).find((variable) => variable.name === name)

describe('buildPod', () => {
  it('runs the agent program from the spec image as a non-root container', () => {
    const pod = buildPod(anOrgAgent(), ports)
    const container = pod.spec?.containers[0]
    expect(pod.metadata).toMatchObject({ name: 'acme', namespace: 'tenants' })
    expect(container).toMatchObject({
      name: 'agent',
      image: 'idplane/idplane:1.0.0',
      command: ['node', '--max-opt=2', 'dist/agent/src/main.js'],
    })
    expect(container?.env).toContainEqual({ name: 'NODE_OPTIONS', value: '--max-semi-space-size=16' })
    expect(pod.spec?.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 })
    expect(container?.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    })
    expect(pod.spec?.automountServiceAccountToken).toBe(false)
  })

  it('sets the OrgAgent as controller owner', () => {
    expect(buildPod(anOrgAgent(), ports).metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'idplane.io/v1alpha1',
        kind: 'OrgAgent',
        name: 'acme',
        uid: 'uid-1',
        controller: true,
        blockOwnerDeletion: true,
      },
    ])
  })

  it('names the admin and inbound ports and probes /agent on the admin port', () => {
    const container = buildPod(anOrgAgent(), ports).spec?.containers[0]
    expect(container?.ports).toEqual([
      { name: 'admin', containerPort: 8002, protocol: 'TCP' },
      { name: 'inbound', containerPort: 9002, protocol: 'TCP' },
    ])
    expect(container?.livenessProbe?.httpGet).toEqual({ path: '/agent', port: 'admin' })
    expect(container?.readinessProbe?.httpGet).toEqual({ path: '/agent', port: 'admin' })
  })

  it.each([
    ['AGENT_API_KEY', { secretKeyRef: { name: 'acme-agent', key: 'AGENT_API_KEY' } }],
    ['AGENT_WALLET_KEY', { secretKeyRef: { name: 'acme-agent', key: 'AGENT_WALLET_KEY' } }],
    ['AGENT_DATABASE_URL', { secretKeyRef: { name: 'acme-agent', key: 'AGENT_DATABASE_URL', optional: true } }],
    ['AGENT_EVENT_TOKEN', { secretKeyRef: { name: 'acme-agent', key: 'AGENT_EVENT_TOKEN', optional: true } }],
  ])('takes %s from the Secret', (name, valueFrom) => {
    expect(envValue(anOrgAgent(), name)).toEqual({ name, valueFrom })
  })

  it.each<[string, Partial<OrgAgentSpec>, string | undefined]>([
    ['AGENT_LABEL', {}, 'Acme'],
    ['AGENT_ADMIN_PORT', {}, '8002'],
    ['AGENT_INBOUND_PORT', {}, '9002'],
    ['AGENT_ENDPOINT', {}, 'http://acme.tenants.svc:9002'],
    ['AGENT_ENDPOINT', { publicEndpointBase: 'https://agents.example.com' }, 'https://agents.example.com:9002'],
    ['AGENT_EVENT_URL', {}, undefined],
    [
      'AGENT_EVENT_URL',
      { eventUrl: 'http://api.idplane.svc/internal/agent-events' },
      'http://api.idplane.svc/internal/agent-events',
    ],
    ['LOG_LEVEL', { env: [{ name: 'LOG_LEVEL', value: 'debug' }] }, 'debug'],
    ['AGENT_ADMIN_PORT', { env: [{ name: 'AGENT_ADMIN_PORT', value: '1' }] }, '8002'],
    ['MALLOC_ARENA_MAX', {}, '2'],
    ['MALLOC_MMAP_THRESHOLD_', {}, '131072'],
    ['MALLOC_TRIM_THRESHOLD_', {}, '131072'],
  ])('sets %s for spec %j to %s', (name, spec, value) => {
    const matches = envOf(anOrgAgent(spec)).filter((variable) => variable.name === name)
    expect(matches.map((variable) => variable.value)).toEqual(value === undefined ? [] : [value])
  })

  it.each<[Partial<OrgAgentSpec>, object | undefined]>([
    [{}, undefined],
    [{ resources: { requests: { cpu: '100m' } } }, { requests: { cpu: '100m' } }],
    [
      { resources: { requests: { memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } } },
      { requests: { memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } },
    ],
  ])('copies resources %j', (spec, expected) => {
    expect(buildPod(anOrgAgent(spec), ports).spec?.containers[0].resources).toEqual(expected)
  })

  it.each<[string, Partial<OrgAgentSpec>, boolean]>([
    ['the same spec', {}, false],
    ['another image', { image: 'idplane/idplane:1.0.1' }, true],
    ['another pull policy', { imagePullPolicy: 'Always' }, true],
    ['another env', { env: [{ name: 'X', value: '1' }] }, true],
    ['another orgId only', { orgId: 'org-2' }, false],
  ])('changes the pod spec hash for %s: %s', (_label, spec, changes) => {
    const hash = (agent: OrgAgent) => buildPod(agent, ports).metadata?.annotations?.[ANNOTATION_POD_SPEC_HASH]
    expect(hash(anOrgAgent(spec)) !== hash(anOrgAgent())).toBe(changes)
  })

  it('is pure: the same input gives an equal Pod', () => {
    expect(buildPod(anOrgAgent(), ports)).toEqual(buildPod(anOrgAgent(), ports))
  })
})

describe('buildService', () => {
  it('exposes the admin and inbound ports and selects the agent Pod', () => {
    const service = buildService(anOrgAgent(), ports)
    expect(service.metadata).toMatchObject({ name: 'acme', namespace: 'tenants' })
    expect(service.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'OrgAgent', uid: 'uid-1', controller: true })
    expect(service.spec?.ports).toEqual([
      { name: 'admin', port: 8002, targetPort: 'admin', protocol: 'TCP' },
      { name: 'inbound', port: 9002, targetPort: 'inbound', protocol: 'TCP' },
    ])
    const podLabels = buildPod(anOrgAgent(), ports).metadata?.labels ?? {}
    for (const [key, value] of Object.entries(service.spec?.selector ?? {})) expect(podLabels[key]).toBe(value)
  })

  it.each([
    [{ adminPort: 8002, inboundPort: 9002 }, false],
    [{ adminPort: 8003, inboundPort: 9002 }, true],
  ])('reports ports %j as different: %s', (otherPorts, differ) => {
    expect(servicePortsDiffer(buildService(anOrgAgent(), otherPorts), buildService(anOrgAgent(), ports))).toBe(differ)
  })
})

describe('agentEndpoint', () => {
  it.each([
    [undefined, 'http://acme.tenants.svc:9002'],
    ['https://agents.example.com', 'https://agents.example.com:9002'],
    ['https://agents.example.com/', 'https://agents.example.com:9002'],
    ['https://agents.example.com:443/acme', 'https://agents.example.com/acme'],
    ['http://agents.example.com:7000', 'http://agents.example.com:7000'],
  ])('for base %s is %s', (publicEndpointBase, expected) => {
    expect(agentEndpoint(anOrgAgent({ publicEndpointBase }), ports)).toBe(expected)
  })
})
