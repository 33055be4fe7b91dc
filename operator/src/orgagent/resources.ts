import { createHash } from 'node:crypto'
import type * as k8s from '@kubernetes/client-node'
import {
  ORGAGENT_API_VERSION,
  ORGAGENT_KIND,
  ORGAGENT_SECRET_KEYS,
  type OrgAgent,
} from '@idplane/common/orgagent.types'
import { endpointFromBase } from '@idplane/common/agent-contract/endpoint'
import { AGENT_ENV, agentPlainEnv } from '@idplane/common/agent-contract/launch-env'
import { AGENT_MALLOC_ENV, AGENT_NODE_OPTIONS, AGENT_V8_OPTIONS } from '@idplane/common/agent-node-options'
import type { PortPair } from '../ports/allocator'

/**
 * The agent program inside the image (package.json "agent" script). V8's options go on the command line (NODE_OPTIONS
 * refuses them); Node's others in NODE_OPTIONS (agentEnv), which spec.env may replace.
 */
export const AGENT_COMMAND = ['node', ...AGENT_V8_OPTIONS, 'dist/agent/src/main.js']
export const AGENT_CONTAINER = 'agent'
export const AGENT_UID = 1000
export const LABEL_ORGAGENT = 'idplane.io/orgagent'
export const ANNOTATION_ORG_ID = 'idplane.io/org-id'
/** Hash of the desired pod spec: a different hash on the live Pod means the spec changed and the Pod is replaced. */
export const ANNOTATION_POD_SPEC_HASH = 'idplane.io/pod-spec-hash'
export const MANAGED_BY = 'idplane-operator'

/** Env names the operator sets itself; spec.env cannot override them. */
const OPERATOR_ENV = new Set<string>([
  ...ORGAGENT_SECRET_KEYS.required,
  ...ORGAGENT_SECRET_KEYS.optional,
  AGENT_ENV.label,
  AGENT_ENV.adminPort,
  AGENT_ENV.inboundPort,
  AGENT_ENV.endpoint,
  AGENT_ENV.eventUrl,
])

function nameOf(agent: OrgAgent): string {
  return agent.metadata.name ?? ''
}

export function podName(agent: OrgAgent): string {
  return nameOf(agent)
}

export function serviceName(agent: OrgAgent): string {
  return nameOf(agent)
}

/** Labels on the Pod (the Service selects on them) and the Service. */
export function agentLabels(agent: OrgAgent): Record<string, string> {
  return {
    'app.kubernetes.io/name': 'idplane-agent',
    'app.kubernetes.io/instance': nameOf(agent),
    'app.kubernetes.io/component': 'agent',
    'app.kubernetes.io/managed-by': MANAGED_BY,
    [LABEL_ORGAGENT]: nameOf(agent),
  }
}

export function selectorLabels(agent: OrgAgent): Record<string, string> {
  return { 'app.kubernetes.io/component': 'agent', [LABEL_ORGAGENT]: nameOf(agent) }
}

/** The controller reference: garbage collection removes the children when the OrgAgent goes. */
export function ownerReference(agent: OrgAgent): k8s.V1OwnerReference {
  return {
    apiVersion: ORGAGENT_API_VERSION,
    kind: ORGAGENT_KIND,
    name: nameOf(agent),
    uid: agent.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  }
}

/**
 * AGENT_ENDPOINT, the DIDComm endpoint the agent advertises: spec.publicEndpointBase with the inbound port
 * when set (a base that names a port of its own is used as is), the Service's cluster address otherwise.
 */
export function agentEndpoint(agent: OrgAgent, ports: PortPair): string {
  const base = agent.spec.publicEndpointBase
  if (base) return endpointFromBase(base, ports.inboundPort)
  return `http://${serviceName(agent)}.${agent.metadata.namespace ?? 'default'}.svc:${ports.inboundPort}`
}

function agentEnv(agent: OrgAgent, ports: PortPair): k8s.V1EnvVar[] {
  const fromSecret = (key: string, optional: boolean): k8s.V1EnvVar => ({
    name: key,
    valueFrom: { secretKeyRef: { name: agent.spec.secretName, key, ...(optional ? { optional: true } : {}) } },
  })
  return [
    ...ORGAGENT_SECRET_KEYS.required.map((key) => fromSecret(key, false)),
    ...ORGAGENT_SECRET_KEYS.optional.map((key) => fromSecret(key, true)),
    ...Object.entries(
      agentPlainEnv({
        label: agent.spec.label,
        adminPort: ports.adminPort,
        inboundPort: ports.inboundPort,
        endpoint: agentEndpoint(agent, ports),
        ...(agent.spec.eventUrl ? { eventUrl: agent.spec.eventUrl } : {}),
      }),
    ).map(([name, value]) => ({ name, value })),
    // Before spec.env, which may replace it.
    { name: 'NODE_OPTIONS', value: AGENT_NODE_OPTIONS.join(' ') },
    ...Object.entries(AGENT_MALLOC_ENV).map(([name, value]) => ({ name, value })),
    ...(agent.spec.env ?? [])
      .filter((variable) => !OPERATOR_ENV.has(variable.name))
      .map((variable) => ({ name: variable.name, value: variable.value ?? '' })),
  ]
}

function agentResources(agent: OrgAgent): k8s.V1ResourceRequirements | undefined {
  const { requests, limits } = agent.spec.resources ?? {}
  const quantities = (value: { cpu?: string; memory?: string } | undefined) => {
    if (!value) return undefined
    const out: Record<string, string> = {}
    if (value.cpu) out.cpu = value.cpu
    if (value.memory) out.memory = value.memory
    return Object.keys(out).length > 0 ? out : undefined
  }
  const resources: k8s.V1ResourceRequirements = {}
  const request = quantities(requests)
  const limit = quantities(limits)
  if (request) resources.requests = request
  if (limit) resources.limits = limit
  return request || limit ? resources : undefined
}

function podSpec(agent: OrgAgent, ports: PortPair): k8s.V1PodSpec {
  const probe = (periodSeconds: number, failureThreshold: number): k8s.V1Probe => ({
    httpGet: { path: '/agent', port: 'admin' },
    periodSeconds,
    failureThreshold,
    timeoutSeconds: 2,
  })
  const resources = agentResources(agent)
  return {
    restartPolicy: 'Always',
    automountServiceAccountToken: false,
    enableServiceLinks: false,
    terminationGracePeriodSeconds: 30,
    securityContext: {
      runAsNonRoot: true,
      runAsUser: AGENT_UID,
      runAsGroup: AGENT_UID,
      fsGroup: AGENT_UID,
      seccompProfile: { type: 'RuntimeDefault' },
    },
    containers: [
      {
        name: AGENT_CONTAINER,
        image: agent.spec.image,
        ...(agent.spec.imagePullPolicy ? { imagePullPolicy: agent.spec.imagePullPolicy } : {}),
        command: [...AGENT_COMMAND],
        env: agentEnv(agent, ports),
        ports: [
          { name: 'admin', containerPort: ports.adminPort, protocol: 'TCP' },
          { name: 'inbound', containerPort: ports.inboundPort, protocol: 'TCP' },
        ],
        // The agent opens its wallet before /agent answers: 6 x 10 s of liveness failures before a restart.
        livenessProbe: { ...probe(10, 6), initialDelaySeconds: 10 },
        readinessProbe: probe(5, 3),
        ...(resources ? { resources } : {}),
        securityContext: {
          allowPrivilegeEscalation: false,
          runAsNonRoot: true,
          capabilities: { drop: ['ALL'] },
        },
      },
    ],
  }
}

/** A short, stable digest of JSON. */
export function specHash(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16)
}

/** The agent's Pod. Pure: the same OrgAgent and ports always give the same Pod. */
export function buildPod(agent: OrgAgent, ports: PortPair): k8s.V1Pod {
  const spec = podSpec(agent, ports)
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: podName(agent),
      namespace: agent.metadata.namespace,
      labels: agentLabels(agent),
      annotations: { [ANNOTATION_ORG_ID]: agent.spec.orgId, [ANNOTATION_POD_SPEC_HASH]: specHash(spec) },
      ownerReferences: [ownerReference(agent)],
    },
    spec,
  }
}

/** The agent's Service: the admin port for the platform, the inbound port for DIDComm. Pure. */
export function buildService(agent: OrgAgent, ports: PortPair): k8s.V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: serviceName(agent),
      namespace: agent.metadata.namespace,
      labels: agentLabels(agent),
      annotations: { [ANNOTATION_ORG_ID]: agent.spec.orgId },
      ownerReferences: [ownerReference(agent)],
    },
    spec: {
      type: 'ClusterIP',
      selector: selectorLabels(agent),
      ports: [
        { name: 'admin', port: ports.adminPort, targetPort: 'admin', protocol: 'TCP' },
        { name: 'inbound', port: ports.inboundPort, targetPort: 'inbound', protocol: 'TCP' },
      ],
    },
  }
}

/** True when the live Service exposes other ports than `desired` (only the ports are owned here). */
export function servicePortsDiffer(live: k8s.V1Service, desired: k8s.V1Service): boolean {
  const summary = (service: k8s.V1Service) =>
    JSON.stringify((service.spec?.ports ?? []).map((port) => [port.name, port.port, String(port.targetPort)]))
  return summary(live) !== summary(desired)
}
