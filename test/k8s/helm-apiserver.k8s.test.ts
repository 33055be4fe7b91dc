import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import {
  hasRealKubeApiServer,
  kubeTool,
  startRealKubeApiServer,
  type RealKubeApiServer,
} from '../helpers/real-kube-apiserver'
import { requireTools } from '../helpers/test-tools'

/**
 * `helm install` of the chart into a real kube-apiserver 1.20: the server accepts every object (helm checks
 * them against the server's OpenAPI schema), the CRD is installed from crds/, the RBAC grants exactly what
 * the operator and the API need (asked with `kubectl auth can-i` as their ServiceAccounts), and generated
 * passwords survive an upgrade.
 */
const execFileAsync = promisify(execFile)
const ROOT = path.resolve(__dirname, '../..')
const CHART = path.join(ROOT, 'helm/idplane')

const missing = (): string[] =>
  [
    hasRealKubeApiServer() ? undefined : 'kube-apiserver/etcd (scripts/kube-apiserver.sh)',
    kubeTool('helm') ? undefined : 'helm (scripts/fetch-helm.sh)',
    kubeTool('kubectl') ? undefined : 'kubectl (scripts/kube-apiserver.sh or scripts/fetch-helm.sh)',
  ].filter((tool): tool is string => tool !== undefined)
const describeIfAvailable = requireTools('test/k8s/helm-apiserver.k8s.test.ts', missing) ? describe : describe.skip
const helmBinary = kubeTool('helm')
const kubectlBinary = kubeTool('kubectl')

/** Just enough of prometheus-operator's CRD for the production example's ServiceMonitors to be accepted. */
const SERVICE_MONITOR_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'servicemonitors.monitoring.coreos.com' },
  spec: {
    group: 'monitoring.coreos.com',
    scope: 'Namespaced',
    names: {
      kind: 'ServiceMonitor',
      plural: 'servicemonitors',
      singular: 'servicemonitor',
      listKind: 'ServiceMonitorList',
    },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
}

describeIfAvailable('helm install on a real kube-apiserver', () => {
  let server: RealKubeApiServer
  let workDir: string
  let env: NodeJS.ProcessEnv

  const run = async (binary: string | undefined, args: string[], input?: string): Promise<string> => {
    const child = execFileAsync(binary ?? 'false', args, { env, cwd: ROOT, maxBuffer: 16 * 1024 * 1024 })
    if (input !== undefined) child.child.stdin?.end(input)
    return (await child).stdout
  }
  const helm = (args: string[]) => run(helmBinary, args)
  const kubectl = (args: string[], input?: string) => run(kubectlBinary, args, input)
  const canI = async (serviceAccount: string, namespace: string, args: string[]): Promise<boolean> => {
    try {
      await kubectl([
        'auth',
        'can-i',
        '--as',
        `system:serviceaccount:idplane:${serviceAccount}`,
        '-n',
        namespace,
        ...args,
      ])
      return true
    } catch {
      return false // can-i exits 1 for "no"
    }
  }

  let installNotes = ''

  beforeAll(async () => {
    const started = await startRealKubeApiServer()
    if (started === undefined) throw new Error('kube-apiserver disappeared between the check and the start')
    server = started
    workDir = mkdtempSync(path.join(os.tmpdir(), 'idplane-helm-'))
    const kubeconfig = path.join(workDir, 'kubeconfig')
    writeFileSync(kubeconfig, server.kubeConfig().exportConfig(), { mode: 0o600 })
    // helm keeps its cache and config under HOME/XDG dirs: keep them in the temporary directory.
    env = {
      ...process.env,
      KUBECONFIG: kubeconfig,
      HELM_CACHE_HOME: path.join(workDir, 'helm-cache'),
      HELM_CONFIG_HOME: path.join(workDir, 'helm-config'),
      HELM_DATA_HOME: path.join(workDir, 'helm-data'),
    }
    for (const namespace of ['idplane', 'idplane-prod', 'idplane-agents'])
      await kubectl(['create', 'namespace', namespace])
    installNotes = await helm(['install', 'idplane', CHART, '--namespace', 'idplane'])
  }, 120_000)

  afterAll(async () => {
    await server?.stop()
    if (workDir) rmSync(workDir, { recursive: true, force: true })
  })

  it('installs the default values, the OrgAgent CRD included', async () => {
    expect(installNotes).toContain('STATUS: deployed')
    const crd = await kubectl([
      'get',
      'crd',
      'orgagents.idplane.io',
      '-o',
      'jsonpath={.status.conditions[?(@.type=="Established")].status}',
    ])
    expect(crd).toBe('True')
    const deployments = await kubectl(['get', 'deployments', '-n', 'idplane', '-o', 'name'])
    expect(deployments.split('\n').filter(Boolean).sort()).toEqual([
      'deployment.apps/idplane-api',
      'deployment.apps/idplane-operator',
    ])
  })

  it('prints NOTES telling how to reach the API and list the agents', () => {
    const notes = installNotes.slice(installNotes.indexOf('NOTES:'))
    expect(notes).toContain('kubectl -n idplane port-forward svc/idplane-api 5000:80')
    expect(notes).toContain('kubectl -n idplane get orgagents')
    expect(notes).toContain('ORG PHASE READY ADMIN INBOUND ENDPOINT AGE')
    expect(notes).toContain('WARNING: no database is configured')
  })

  it.each([
    ['reconcile OrgAgents', ['watch', 'orgagents.idplane.io'], true],
    ['write OrgAgent status', ['patch', 'orgagents.idplane.io', '--subresource=status'], true],
    ['set OrgAgent finalizers', ['update', 'orgagents.idplane.io', '--subresource=finalizers'], true],
    ['create agent Pods', ['create', 'pods'], true],
    ['update agent Services', ['update', 'services'], true],
    ['read agent Secrets', ['get', 'secrets'], true],
    ['record Events', ['create', 'events'], true],
    ['renew its Lease', ['update', 'leases.coordination.k8s.io/idplane-operator'], true],
    ['update the port counters', ['update', 'configmaps/idplane-agent-ports'], true],
    ['update another ConfigMap', ['update', 'configmaps/other'], false],
    ['take another Lease', ['update', 'leases.coordination.k8s.io/other'], false],
    ['write Secrets', ['create', 'secrets'], false],
    ['create Deployments', ['create', 'deployments.apps'], false],
  ])('lets the operator %s: %s -> %s', async (_what, args, expected) => {
    expect(await canI('idplane-operator', 'idplane', args)).toBe(expected)
  })

  it('keeps the operator out of other namespaces', async () => {
    expect(await canI('idplane-operator', 'kube-system', ['list', 'pods'])).toBe(false)
    expect(await canI('idplane-operator', 'kube-system', ['get', 'secrets'])).toBe(false)
  })

  it.each([
    ['create OrgAgents', ['create', 'orgagents.idplane.io'], true],
    ['follow OrgAgents', ['watch', 'orgagents.idplane.io'], true],
    ['create agent Secrets', ['create', 'secrets'], true],
    ['write OrgAgent status', ['patch', 'orgagents.idplane.io', '--subresource=status'], false],
    ['create Pods', ['create', 'pods'], false],
  ])('lets the API %s: %s -> %s', async (_what, args, expected) => {
    expect(await canI('idplane-api', 'idplane', args)).toBe(expected)
  })

  it('installs values-production.yaml (agents in their own namespace, HPA as the server serves it)', async () => {
    await kubectl(['apply', '-f', '-'], JSON.stringify(SERVICE_MONITOR_CRD))
    await kubectl(['wait', '--for=condition=Established', '--timeout=60s', 'crd/servicemonitors.monitoring.coreos.com'])
    const output = await helm([
      'install',
      'idplane',
      CHART,
      '--namespace',
      'idplane-prod',
      '-f',
      path.join(CHART, 'values-production.yaml'),
    ])
    expect(output).toContain('STATUS: deployed')
    // Kubernetes 1.20 serves autoscaling/v2beta2, not v2: the chart picks what the cluster has.
    const hpa = await kubectl([
      'get',
      'hpa.v2beta2.autoscaling',
      'idplane-api',
      '-n',
      'idplane-prod',
      '-o',
      'jsonpath={.spec.maxReplicas}',
    ])
    expect(hpa).toBe('12')
    const roles = await kubectl(['get', 'roles', '-n', 'idplane-agents', '-o', 'name'])
    expect(roles.split('\n').filter(Boolean).sort()).toEqual([
      'role.rbac.authorization.k8s.io/idplane-api',
      'role.rbac.authorization.k8s.io/idplane-operator',
    ])
    const monitors = await kubectl(['get', 'servicemonitors', '-n', 'idplane-prod', '-o', 'name'])
    expect(monitors.split('\n').filter(Boolean)).toHaveLength(3)
  })

  it('keeps the generated PostgreSQL and RabbitMQ passwords across helm upgrade', async () => {
    const args = ['--namespace', 'idplane', '--set', 'postgresql.enabled=true,rabbitmq.enabled=true']
    await helm(['upgrade', 'idplane', CHART, ...args])
    const password = (name: string) =>
      kubectl(['get', 'secret', name, '-n', 'idplane', '-o', 'jsonpath={.data.password}'])
    const before = [await password('idplane-postgresql'), await password('idplane-rabbitmq')]
    expect(before.every((value) => Buffer.from(value, 'base64').toString().length === 32)).toBe(true)
    await helm(['upgrade', 'idplane', CHART, ...args, '--set', 'config.logLevel=debug'])
    expect([await password('idplane-postgresql'), await password('idplane-rabbitmq')]).toEqual(before)
  })
})
