import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import type * as k8s from '@kubernetes/client-node'
import { parse, parseAllDocuments } from 'yaml'
import type { OrgAgent } from '@idplane/common/orgagent.types'
import { AGENT_COMMAND, buildPod, buildService } from '../../operator/src/orgagent/resources'
import { kubeTool } from '../helpers/real-kube-apiserver'
import { requireTools } from '../helpers/test-tools'

/**
 * The Helm chart, offline: lint, render with the default and the production values, validate every rendered
 * object (built-in kinds with kubernetes-models, OrgAgents with the CRD's own schema), and check that the
 * chart and the operator agree on what they share (labels, port names, RBAC, commands).
 */
const execFileAsync = promisify(execFile)
const ROOT = path.resolve(__dirname, '../..')
const CHART = path.join(ROOT, 'helm/idplane')
const PRODUCTION_VALUES = path.join(CHART, 'values-production.yaml')
const CRD_FILE = path.join(ROOT, 'crds/orgagent.yaml')

const hasHelm = requireTools('test/k8s/helm-chart.k8s.test.ts (helm parts)', () =>
  kubeTool('helm') ? [] : ['helm (scripts/fetch-helm.sh)'],
)
const helmBinary = kubeTool('helm')
const describeWithHelm = hasHelm ? describe : describe.skip

interface KubeObject {
  apiVersion: string
  kind: string
  metadata: { name: string; namespace?: string; labels?: Record<string, string> }
  [field: string]: unknown
}

async function helm(args: string[]): Promise<string> {
  const { stdout } = await execFileAsync(helmBinary ?? 'helm', args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 })
  return stdout
}

/** `helm template` with the CRDs, parsed; `args` adds values (-f, --set) and flags. */
async function render(args: string[] = [], namespace = 'idplane'): Promise<KubeObject[]> {
  const output = await helm(['template', 'idplane', CHART, '--namespace', namespace, '--include-crds', ...args])
  return parseAllDocuments(output)
    .map((document) => document.toJS() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null)
}

function find<T>(objects: KubeObject[], kind: string, name: string): T {
  const object = objects.find((candidate) => candidate.kind === kind && candidate.metadata.name === name)
  if (object === undefined) throw new Error(`${kind} ${name} was not rendered`)
  return object as unknown as T
}

function container(deployment: k8s.V1Deployment): k8s.V1Container {
  const [first] = deployment.spec?.template.spec?.containers ?? []
  if (first === undefined) throw new Error(`Deployment ${deployment.metadata?.name} has no container`)
  return first
}

function envValue(target: k8s.V1Container, name: string): k8s.V1EnvVar | undefined {
  return target.env?.find((variable) => variable.name === name)
}

/**
 * kubernetes-models is ESM-only, and jest's CommonJS runtime cannot import() without
 * --experimental-vm-modules, so the objects are validated by a child Node process, where import() is native.
 */
const VALIDATOR = `
const chunks = []
for await (const chunk of process.stdin) chunks.push(chunk)
const results = []
for (const object of JSON.parse(Buffer.concat(chunks).toString('utf8'))) {
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion]
  const modelPath = group === 'monitoring.coreos.com'
    ? '@kubernetes-models/prometheus-operator/' + group + '/' + version + '/' + object.kind
    : 'kubernetes-models/' + (group ? group + '/' : '') + version + '/' + object.kind
  try {
    const model = (await import(modelPath))[object.kind]
    new model(object).validate()
    results.push({ kind: object.kind, name: object.metadata.name, error: null })
  } catch (error) {
    results.push({ kind: object.kind, name: object.metadata.name, error: modelPath + ': ' + error.message })
  }
}
process.stdout.write(JSON.stringify(results))
`

interface ValidationResult {
  kind: string
  name: string
  error: string | null
}

async function validateWithKubernetesModels(objects: KubeObject[]): Promise<ValidationResult[]> {
  const child = execFileAsync(process.execPath, ['--input-type=module', '--eval', VALIDATOR], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  })
  child.child.stdin?.end(JSON.stringify(objects))
  const { stdout } = await child
  return JSON.parse(stdout) as ValidationResult[]
}

// A small OpenAPI v3 validator for the subset structural CRD schemas use; unknown fields are errors here
// (the API server would prune them silently, which hides mistakes in examples).
interface SchemaNode {
  type?: string
  required?: string[]
  properties?: Record<string, SchemaNode>
  items?: SchemaNode
  enum?: unknown[]
  pattern?: string
  minLength?: number
  maxLength?: number
  minimum?: number
  format?: string
  'x-kubernetes-preserve-unknown-fields'?: boolean
}

function validateAgainstSchema(value: unknown, schema: SchemaNode, at = ''): string[] {
  const where = at || '<root>'
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value)
  const typeOk: Record<string, boolean> = {
    object: isObject,
    array: Array.isArray(value),
    string: typeof value === 'string',
    integer: Number.isInteger(value),
    number: typeof value === 'number',
    boolean: typeof value === 'boolean',
  }
  if (schema.type !== undefined && !typeOk[schema.type]) return [`${where}: must be of type ${schema.type}`]
  const errors: string[] = []
  if (schema.enum !== undefined && !schema.enum.includes(value))
    errors.push(`${where}: must be one of ${schema.enum.join(', ')}`)
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength)
      errors.push(`${where}: shorter than ${schema.minLength}`)
    if (schema.maxLength !== undefined && value.length > schema.maxLength)
      errors.push(`${where}: longer than ${schema.maxLength}`)
    if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value))
      errors.push(`${where}: does not match ${schema.pattern}`)
    if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) errors.push(`${where}: not a date-time`)
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${where}: below ${schema.minimum}`)
    if (schema.format === 'int32' && (value < -(2 ** 31) || value >= 2 ** 31)) errors.push(`${where}: not an int32`)
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    const items = schema.items
    value.forEach((item, index) => errors.push(...validateAgainstSchema(item, items, `${at}[${index}]`)))
  }
  if (isObject) {
    const record = value as Record<string, unknown>
    for (const key of schema.required ?? []) {
      if (record[key] === undefined) errors.push(`${at ? `${at}.` : ''}${key}: is required`)
    }
    if (schema.properties !== undefined) {
      for (const [key, child] of Object.entries(record)) {
        const childSchema = schema.properties[key]
        const childAt = at ? `${at}.${key}` : key
        if (childSchema !== undefined) errors.push(...validateAgainstSchema(child, childSchema, childAt))
        else if (!schema['x-kubernetes-preserve-unknown-fields']) errors.push(`${childAt}: is not in the schema`)
      }
    }
  }
  return errors
}

function orgAgentSchema(): SchemaNode {
  const crd = parse(readFileSync(CRD_FILE, 'utf8')) as {
    spec: { versions: { name: string; schema: { openAPIV3Schema: SchemaNode } }[] }
  }
  const version = crd.spec.versions.find((candidate) => candidate.name === 'v1alpha1')
  if (version === undefined) throw new Error('crds/orgagent.yaml has no v1alpha1')
  return version.schema.openAPIV3Schema
}

/** OrgAgent examples in docs/deployment.md (```yaml blocks of kind OrgAgent): they must be valid too. */
function documentedOrgAgents(): KubeObject[] {
  const markdown = readFileSync(path.join(ROOT, 'docs/deployment.md'), 'utf8')
  return [...markdown.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .flatMap((match) => parseAllDocuments(match[1]).map((document) => document.toJS() as KubeObject | null))
    .filter((object): object is KubeObject => object !== null && object.kind === 'OrgAgent')
}

function anOrgAgent(overrides: Partial<OrgAgent['spec']> = {}): OrgAgent {
  return {
    apiVersion: 'idplane.io/v1alpha1',
    kind: 'OrgAgent',
    metadata: { name: 'acme', namespace: 'idplane', uid: '00000000-0000-4000-8000-000000000001' },
    spec: { orgId: 'org-acme', label: 'Acme', image: 'idplane/idplane:0.1.0', secretName: 'acme-agent', ...overrides },
  }
}

const ALL_FEATURES = [
  '--set-string',
  'secrets.jwtPrivateKey=private,secrets.jwtPublicKey=public',
  '--set',
  'postgresql.enabled=true,rabbitmq.enabled=true,metrics.serviceMonitor.enabled=true,api.ingress.enabled=true',
  '--set',
  'api.autoscaling.enabled=true,operator.clusterWide=true,agents.namespace=idplane-agents',
]

describe('the chart ships the OrgAgent CRD', () => {
  it('byte for byte as crds/orgagent.yaml (scripts/sync-crd.sh copies it)', () => {
    expect(readFileSync(path.join(CHART, 'crds/orgagent.yaml'))).toEqual(readFileSync(CRD_FILE))
  })
})

describe('OrgAgent objects validate against the CRD schema', () => {
  const schema = orgAgentSchema()

  it('accepts a complete OrgAgent and the examples in docs/deployment.md', () => {
    const examples = documentedOrgAgents()
    expect(examples.length).toBeGreaterThan(0)
    for (const object of [
      anOrgAgent({ imagePullPolicy: 'IfNotPresent', env: [{ name: 'X', value: '1' }] }),
      ...examples,
    ]) {
      expect(validateAgainstSchema(object, schema)).toEqual([])
    }
  })

  it.each([
    ['a missing orgId', { orgId: undefined }, 'spec.orgId: is required'],
    ['an empty label', { label: '' }, 'spec.label: shorter than 1'],
    ['an unknown pull policy', { imagePullPolicy: 'Sometimes' }, 'spec.imagePullPolicy: must be one of'],
    ['a misspelt field', { secretname: 'x' }, 'spec.secretname: is not in the schema'],
  ])('rejects %s', (_case, overrides, message) => {
    const object = anOrgAgent(overrides as Partial<OrgAgent['spec']>)
    expect(validateAgainstSchema(JSON.parse(JSON.stringify(object)), schema).join('\n')).toContain(message)
  })
})

describeWithHelm('helm chart helm/idplane', () => {
  it.each([
    ['the default values', []],
    ['values-production.yaml', ['-f', PRODUCTION_VALUES]],
  ])('passes helm lint --strict with %s', async (_name, args) => {
    const output = await helm(['lint', '--strict', CHART, ...args])
    expect(output).toContain('0 chart(s) failed')
  })

  it.each([
    ['the default values', [], 'idplane'],
    ['values-production.yaml', ['-f', PRODUCTION_VALUES], 'idplane'],
    ['every optional part enabled', ALL_FEATURES, 'platform'],
  ])('renders objects that kubernetes-models and the CRD schema accept, with %s', async (_name, args, namespace) => {
    const objects = await render(args, namespace)
    const builtIn = objects.filter((object) => object.kind !== 'OrgAgent')
    const results = await validateWithKubernetesModels(builtIn)
    expect(results.filter((result) => result.error !== null)).toEqual([])
    expect(results).toHaveLength(builtIn.length)
    const schema = orgAgentSchema()
    for (const orgAgent of objects.filter((object) => object.kind === 'OrgAgent')) {
      expect(validateAgainstSchema(orgAgent, schema)).toEqual([])
    }
  })

  it('renders the expected objects with the default values', async () => {
    const kinds = (await render()).map((object) => `${object.kind}/${object.metadata.name}`).sort()
    expect(kinds).toEqual(
      [
        'ConfigMap/idplane',
        'CustomResourceDefinition/orgagents.idplane.io',
        'Deployment/idplane-api',
        'Deployment/idplane-operator',
        'NetworkPolicy/idplane-agents',
        'Role/idplane-api',
        'Role/idplane-operator',
        'Role/idplane-operator-state',
        'RoleBinding/idplane-api',
        'RoleBinding/idplane-operator',
        'RoleBinding/idplane-operator-state',
        'Secret/idplane',
        'Service/idplane-api',
        'Service/idplane-operator',
        'ServiceAccount/idplane-api',
        'ServiceAccount/idplane-operator',
      ].sort(),
    )
  })

  it('runs the API with its probes, AGENT_RUNTIME=kubernetes and env from the ConfigMap and the Secret', async () => {
    const api = container(find<k8s.V1Deployment>(await render(), 'Deployment', 'idplane-api'))
    expect(api.image).toBe('idplane/idplane:0.1.0')
    expect(api.command).toEqual(['node', 'dist/api/src/main.js'])
    expect(api.livenessProbe?.httpGet?.path).toBe('/health/live')
    expect(api.readinessProbe?.httpGet?.path).toBe('/health/ready')
    expect(api.ports).toEqual([{ name: 'http', containerPort: 5000, protocol: 'TCP' }])
    expect(envValue(api, 'AGENT_RUNTIME')?.value).toBe('kubernetes')
    expect(envValue(api, 'AGENT_IMAGE')?.value).toBe('idplane/idplane:0.1.0')
    expect(api.envFrom).toEqual([{ configMapRef: { name: 'idplane' } }, { secretRef: { name: 'idplane' } }])
    expect(api.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false })
  })

  it('runs the managed base-wallet agent by default; cloudWallet.baseAgent.managed=false waits for a configured one', async () => {
    const configOf = async (args: string[]) =>
      find<k8s.V1ConfigMap>(await render(args), 'ConfigMap', 'idplane').data?.CLOUD_WALLET_BASE_AGENT
    expect(await configOf([])).toBe('managed')
    expect(await configOf(['--set', 'cloudWallet.baseAgent.managed=false'])).toBe('external')
    await expect(render(['--set', 'cloudWallet.baseAgent.managd=true'])).rejects.toThrow(
      'Additional property managd is not allowed',
    )
  })

  it('runs two operator replicas with leader election identity from the downward API', async () => {
    const objects = await render()
    const deployment = find<k8s.V1Deployment>(objects, 'Deployment', 'idplane-operator')
    const operator = container(deployment)
    expect(deployment.spec?.replicas).toBe(2)
    expect(operator.command).toEqual(['node', 'dist/operator/src/main.js'])
    expect(envValue(operator, 'POD_NAME')?.valueFrom?.fieldRef?.fieldPath).toBe('metadata.name')
    expect(envValue(operator, 'POD_NAMESPACE')?.valueFrom?.fieldRef?.fieldPath).toBe('metadata.namespace')
    expect(envValue(operator, 'OPERATOR_LEASE_NAME')?.value).toBe('idplane-operator')
    expect(envValue(operator, 'OPERATOR_PORTS_CONFIGMAP')?.value).toBe('idplane-agent-ports')
    expect(envValue(operator, 'WATCH_NAMESPACE')?.value).toBe('idplane')
    expect(operator.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' })
    expect(operator.ports).toEqual([{ name: 'http', containerPort: 8080, protocol: 'TCP' }])
    expect(deployment.spec?.template.spec?.serviceAccountName).toBe('idplane-operator')
  })

  it('gives the operator least privilege: namespaced Roles, Secrets read-only, Lease and port ConfigMap by name', async () => {
    const objects = await render()
    expect(
      objects.filter((object) => object.kind.startsWith('Cluster') && object.kind !== 'CustomResourceDefinition'),
    ).toEqual([])
    const agents = find<k8s.V1Role>(objects, 'Role', 'idplane-operator')
    const verbsOf = (role: k8s.V1Role, resource: string) =>
      (role.rules ?? []).filter((rule) => rule.resources?.includes(resource)).flatMap((rule) => rule.verbs)
    expect(verbsOf(agents, 'orgagents/status')).toEqual(expect.arrayContaining(['get', 'update', 'patch']))
    expect(verbsOf(agents, 'orgagents/finalizers')).toEqual(['update'])
    expect(verbsOf(agents, 'pods')).toEqual(expect.arrayContaining(['create', 'delete', 'watch']))
    expect(verbsOf(agents, 'secrets').sort()).toEqual(['get', 'list', 'watch'])
    expect(verbsOf(agents, 'events')).toContain('create')
    expect(agents.rules?.flatMap((rule) => rule.verbs)).not.toContain('*')

    const state = find<k8s.V1Role>(objects, 'Role', 'idplane-operator-state')
    const named = (resource: string) =>
      state.rules?.find((rule) => rule.resources?.includes(resource) && rule.resourceNames)
    expect(named('leases')).toMatchObject({ apiGroups: ['coordination.k8s.io'], resourceNames: ['idplane-operator'] })
    expect(named('configmaps')).toMatchObject({
      resourceNames: ['idplane-agent-ports'],
      verbs: ['get', 'update', 'patch'],
    })
  })

  it('switches the operator to a ClusterRole only when operator.clusterWide', async () => {
    const objects = await render(['--set', 'operator.clusterWide=true'])
    expect(find<k8s.V1ClusterRole>(objects, 'ClusterRole', 'idplane-operator').metadata?.namespace).toBeUndefined()
    expect(find<k8s.V1ClusterRoleBinding>(objects, 'ClusterRoleBinding', 'idplane-operator').subjects).toEqual([
      { kind: 'ServiceAccount', name: 'idplane-operator', namespace: 'idplane' },
    ])
    const operator = container(find<k8s.V1Deployment>(objects, 'Deployment', 'idplane-operator'))
    expect(envValue(operator, 'WATCH_NAMESPACE')?.value).toBe('')
  })

  it('lets only the API and operator reach agent admin ports, as the operator labels and names them', async () => {
    // Raw JSON, so `from` (client-node's type calls it `_from`).
    type IngressRule = { from?: k8s.V1NetworkPolicyPeer[]; ports?: k8s.V1NetworkPolicyPort[] }
    const policy = find<{ spec: { podSelector: k8s.V1LabelSelector; ingress: IngressRule[] } }>(
      await render(),
      'NetworkPolicy',
      'idplane-agents',
    )
    const pod = buildPod(anOrgAgent(), { adminPort: 8002, inboundPort: 9002 })
    expect(pod.metadata?.labels).toMatchObject(policy.spec.podSelector.matchLabels ?? { missing: 'selector' })
    const [adminRule, inboundRule] = policy.spec.ingress
    const containerPorts = pod.spec?.containers[0]?.ports?.map((port) => port.name)
    expect(adminRule.ports).toEqual([{ protocol: 'TCP', port: 'admin' }])
    expect(inboundRule).toEqual({ ports: [{ protocol: 'TCP', port: 'inbound' }] })
    expect(containerPorts).toEqual(expect.arrayContaining(['admin', 'inbound']))
    const peers = (adminRule.from ?? []).map((peer) => peer.podSelector?.matchLabels)
    expect(peers).toEqual([
      {
        'app.kubernetes.io/name': 'idplane',
        'app.kubernetes.io/instance': 'idplane',
        'app.kubernetes.io/component': 'api',
      },
      {
        'app.kubernetes.io/name': 'idplane',
        'app.kubernetes.io/instance': 'idplane',
        'app.kubernetes.io/component': 'operator',
      },
    ])
    expect(pod.spec?.containers[0]?.command).toEqual(AGENT_COMMAND)
  })

  it('scrapes the API, the operator and the agents (by the operator labels and port name) with values-production.yaml', async () => {
    const objects = await render(['-f', PRODUCTION_VALUES])
    const monitors = objects.filter((object) => object.kind === 'ServiceMonitor').map((object) => object.metadata.name)
    expect(monitors.sort()).toEqual(['idplane-agents', 'idplane-api', 'idplane-operator'])
    const agents = find<{
      spec: {
        selector: { matchLabels: Record<string, string> }
        endpoints: { port: string }[]
        namespaceSelector: unknown
      }
    }>(objects, 'ServiceMonitor', 'idplane-agents')
    const service = buildService(anOrgAgent(), { adminPort: 8002, inboundPort: 9002 })
    expect(service.metadata?.labels).toMatchObject(agents.spec.selector.matchLabels)
    expect(service.spec?.ports?.map((port) => port.name)).toContain(agents.spec.endpoints[0].port)
    expect(agents.spec.namespaceSelector).toEqual({ matchNames: ['idplane-agents'] })
  })

  it('moves /metrics to api.metricsPort: METRICS_PORT, a metrics port on the Pod and the Service, scraped there', async () => {
    type Monitor = { spec: { endpoints: { port: string }[] } }
    const scrapedPort = (objects: KubeObject[], name: string) =>
      find<Monitor>(objects, 'ServiceMonitor', name).spec.endpoints[0]?.port
    const apart = await render(['--set', 'api.metricsPort=9464,metrics.serviceMonitor.enabled=true'])
    const api = container(find<k8s.V1Deployment>(apart, 'Deployment', 'idplane-api'))
    expect(api.ports).toEqual([
      { name: 'http', containerPort: 5000, protocol: 'TCP' },
      { name: 'metrics', containerPort: 9464, protocol: 'TCP' },
    ])
    expect(envValue(api, 'METRICS_PORT')?.value).toBe('9464')
    const service = find<k8s.V1Service>(apart, 'Service', 'idplane-api')
    expect(service.spec?.ports).toContainEqual({ name: 'metrics', port: 9464, targetPort: 'metrics', protocol: 'TCP' })
    expect(scrapedPort(apart, 'idplane-api')).toBe('metrics')
    expect(scrapedPort(apart, 'idplane-operator')).toBe('http')

    const together = await render(['--set', 'metrics.serviceMonitor.enabled=true'])
    expect(
      envValue(container(find<k8s.V1Deployment>(together, 'Deployment', 'idplane-api')), 'METRICS_PORT'),
    ).toBeUndefined()
    expect(scrapedPort(together, 'idplane-api')).toBe('http')
    expect(scrapedPort(await render(['-f', PRODUCTION_VALUES]), 'idplane-api')).toBe('metrics')
  })

  it('renders the production example: TLS ingress, HPA, existing Secret, no chart Secret', async () => {
    const objects = await render(['-f', PRODUCTION_VALUES])
    const ingress = find<k8s.V1Ingress>(objects, 'Ingress', 'idplane-api')
    expect(ingress.spec?.tls).toEqual([{ hosts: ['idplane.example.com'], secretName: 'idplane-tls' }])
    expect(ingress.spec?.ingressClassName).toBe('nginx')
    const hpa = find<KubeObject>(objects, 'HorizontalPodAutoscaler', 'idplane-api')
    expect(hpa.apiVersion).toBe('autoscaling/v2')
    expect(objects.some((object) => object.kind === 'Secret')).toBe(false)
    const deployment = find<k8s.V1Deployment>(objects, 'Deployment', 'idplane-api')
    expect(deployment.spec?.replicas).toBeUndefined()
    expect(container(deployment).envFrom).toContainEqual({ secretRef: { name: 'idplane-secrets' } })
    const roles = objects.filter((object) => object.kind === 'Role')
    expect(roles.map((role) => `${role.metadata.name}@${role.metadata.namespace}`).sort()).toEqual([
      'idplane-api@idplane-agents',
      'idplane-operator-state@idplane',
      'idplane-operator@idplane-agents',
    ])
  })

  it('composes DATABASE_URL and AMQP_URL from the in-cluster services without putting passwords in the ConfigMap', async () => {
    const objects = await render(ALL_FEATURES, 'platform')
    const api = container(find<k8s.V1Deployment>(objects, 'Deployment', 'idplane-api'))
    expect(envValue(api, 'DATABASE_URL')?.value).toBe(
      'postgresql://idplane:$(POSTGRESQL_PASSWORD)@idplane-postgresql:5432/idplane',
    )
    expect(envValue(api, 'POSTGRESQL_PASSWORD')?.valueFrom?.secretKeyRef).toEqual({
      name: 'idplane-postgresql',
      key: 'password',
    })
    expect(envValue(api, 'AMQP_URL')?.value).toBe('amqp://idplane:$(RABBITMQ_PASSWORD)@idplane-rabbitmq:5672')
    const config = find<k8s.V1ConfigMap>(objects, 'ConfigMap', 'idplane')
    expect(JSON.stringify(config.data)).not.toMatch(/PASSWORD|postgresql:\/\//)
    expect(find<k8s.V1StatefulSet>(objects, 'StatefulSet', 'idplane-postgresql').spec?.replicas).toBe(1)
    expect(find<k8s.V1StatefulSet>(objects, 'StatefulSet', 'idplane-rabbitmq').spec?.replicas).toBe(1)
  })

  it.each([
    ['a misspelt key', ['--set', 'api.replicaz=2'], 'Additional property replicaz is not allowed'],
    ['an unknown log level', ['--set', 'config.logLevel=verbose'], 'config.logLevel'],
    ['a non-numeric port', ['--set', 'api.port=http'], 'api.port'],
    ['two API replicas without a database', ['--set', 'api.replicaCount=2'], 'needs a shared database'],
    [
      'existingSecret together with inline secrets',
      ['--set', 'secrets.existingSecret=mine,secrets.databaseUrl=postgresql://u:p@h/db'],
      'secrets.existingSecret is set',
    ],
    ['only half a JWT key pair', ['--set', 'secrets.jwtPrivateKey=abc'], 'must be set together'],
  ])('refuses %s with a clear message', async (_case, args, message) => {
    await expect(render(args)).rejects.toThrow(message)
  })
})
