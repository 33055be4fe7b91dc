import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import * as k8s from '@kubernetes/client-node'
import {
  hasRealKubeApiServer,
  kubeTool,
  startRealKubeApiServer,
  type RealKubeApiServer,
} from '../helpers/real-kube-apiserver'
import { requireTools } from '../helpers/test-tools'

/**
 * The OrgAgent CRD on a real kube-apiserver 1.20 with etcd: it installs, validates OrgAgents, takes status
 * through the /status subresource, and `kubectl get orgagents` prints the printer columns operators read.
 */
const execFileAsync = promisify(execFile)
const ROOT = path.resolve(__dirname, '../..')
const CRD_FILE = path.join(ROOT, 'crds/orgagent.yaml')
const NAMESPACE = 'default'
const MERGE_PATCH = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch)

const isAvailable = requireTools('test/k8s/kubectl-orgagents.k8s.test.ts', () => [
  ...(hasRealKubeApiServer() ? [] : ['kube-apiserver/etcd (scripts/kube-apiserver.sh)']),
  ...(kubeTool('kubectl') ? [] : ['kubectl (scripts/kube-apiserver.sh)']),
])
const kubectlBinary = kubeTool('kubectl')
const describeIfAvailable = isAvailable ? describe : describe.skip

function anOrgAgent(name: string, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'idplane.io/v1alpha1',
    kind: 'OrgAgent',
    metadata: { name, namespace: NAMESPACE },
    spec: {
      orgId: `org-${name}`,
      label: `Agent of ${name}`,
      image: 'idplane/idplane:0.1.0',
      secretName: `${name}-agent`,
      ...spec,
    },
  }
}

/** Rows of `kubectl get` output keyed by column; cells are cut at the header's column starts (empty cells are blank). */
function parseTable(output: string): { columns: string[]; rows: Record<string, string>[] } {
  const [header, ...lines] = output.trimEnd().split('\n')
  const starts = [...header.matchAll(/\S+/g)].map((match) => ({ name: match[0], start: match.index ?? 0 }))
  const rows = lines.map((line) =>
    Object.fromEntries(
      starts.map(({ name, start }, index) => [name, line.slice(start, starts[index + 1]?.start ?? line.length).trim()]),
    ),
  )
  return { columns: starts.map(({ name }) => name), rows }
}

function readyCondition(status: 'True' | 'False', reason: string): Record<string, string> {
  return { type: 'Ready', status, reason, message: `Agent is ${reason}`, lastTransitionTime: new Date().toISOString() }
}

describeIfAvailable('OrgAgent CRD on a real kube-apiserver', () => {
  let server: RealKubeApiServer
  let kubeconfigDir: string
  let kubeconfigFile: string
  let customObjects: k8s.CustomObjectsApi

  const kubectl = async (args: string[], input?: string): Promise<string> => {
    const child = execFileAsync(kubectlBinary ?? 'kubectl', args, {
      env: { ...process.env, KUBECONFIG: kubeconfigFile },
    })
    if (input !== undefined) {
      child.child.stdin?.end(input)
    }
    const { stdout } = await child
    return stdout
  }

  beforeAll(async () => {
    const started = await startRealKubeApiServer()
    if (started === undefined) throw new Error('kube-apiserver disappeared between the check and the start')
    server = started
    kubeconfigDir = mkdtempSync(path.join(os.tmpdir(), 'idplane-kubeconfig-'))
    kubeconfigFile = path.join(kubeconfigDir, 'config')
    writeFileSync(kubeconfigFile, server.kubeConfig().exportConfig(), { mode: 0o600 })
    customObjects = server.kubeConfig().makeApiClient(k8s.CustomObjectsApi)
    await kubectl(['apply', '-f', CRD_FILE])
    await kubectl(['wait', '--for=condition=Established', '--timeout=60s', 'crd/orgagents.idplane.io'])
  }, 120_000)

  afterAll(async () => {
    await server?.stop()
    if (kubeconfigDir) rmSync(kubeconfigDir, { recursive: true, force: true })
  })

  it('runs kube-apiserver 1.20 and kubectl of the same minor version', async () => {
    const version = JSON.parse(await kubectl(['version', '-o', 'json'])) as {
      serverVersion: { major: string; minor: string }
    }
    expect(`${version.serverVersion.major}.${version.serverVersion.minor}`).toMatch(/^1\.20/)
  })

  it('serves the OrgAgent kind with its short name and category', async () => {
    const resources = await kubectl(['api-resources', '--api-group=idplane.io', '--no-headers'])
    expect(resources).toMatch(/^orgagents\s+oa\s+idplane\.io\/v1alpha1\s+true\s+OrgAgent/m)
  })

  it('shows ORG PHASE READY ADMIN INBOUND ENDPOINT AGE with the status the operator writes', async () => {
    await kubectl(['apply', '-f', '-'], JSON.stringify(anOrgAgent('acme')))
    await customObjects.patchNamespacedCustomObjectStatus(
      {
        group: 'idplane.io',
        version: 'v1alpha1',
        namespace: NAMESPACE,
        plural: 'orgagents',
        name: 'acme',
        body: {
          status: {
            phase: 'Ready',
            adminPort: 8002,
            inboundPort: 9002,
            controllerEndpoint: 'http://acme.default.svc:8002',
            conditions: [readyCondition('True', 'AgentReachable')],
          },
        },
      },
      MERGE_PATCH,
    )

    const { columns, rows } = parseTable(await kubectl(['get', 'orgagents', '-n', NAMESPACE]))
    expect(columns).toEqual(['NAME', 'ORG', 'PHASE', 'READY', 'ADMIN', 'INBOUND', 'ENDPOINT', 'AGE'])
    expect(rows).toEqual([
      {
        NAME: 'acme',
        ORG: 'org-acme',
        PHASE: 'Ready',
        READY: 'True',
        ADMIN: '8002',
        INBOUND: '9002',
        ENDPOINT: 'http://acme.default.svc:8002',
        AGE: expect.stringMatching(/^\d+s$/),
      },
    ])
  })

  it('answers the short name oa with the same columns, blank where the status is not written yet', async () => {
    await kubectl(['apply', '-f', '-'], JSON.stringify(anOrgAgent('globex')))
    const { columns, rows } = parseTable(await kubectl(['get', 'oa', 'globex', '-n', NAMESPACE]))
    expect(columns).toEqual(['NAME', 'ORG', 'PHASE', 'READY', 'ADMIN', 'INBOUND', 'ENDPOINT', 'AGE'])
    expect(rows).toEqual([
      {
        NAME: 'globex',
        ORG: 'org-globex',
        PHASE: '',
        READY: '',
        ADMIN: '',
        INBOUND: '',
        ENDPOINT: '',
        AGE: expect.any(String),
      },
    ])
  })

  it('shows a failed agent as Failed / False without an endpoint', async () => {
    await kubectl(['apply', '-f', '-'], JSON.stringify(anOrgAgent('hooli')))
    await customObjects.patchNamespacedCustomObjectStatus(
      {
        group: 'idplane.io',
        version: 'v1alpha1',
        namespace: NAMESPACE,
        plural: 'orgagents',
        name: 'hooli',
        body: {
          status: {
            phase: 'Failed',
            adminPort: 8003,
            inboundPort: 9003,
            conditions: [readyCondition('False', 'AgentUnreachable')],
          },
        },
      },
      MERGE_PATCH,
    )
    const { rows } = parseTable(await kubectl(['get', 'orgagents', 'hooli', '-n', NAMESPACE]))
    expect(rows[0]).toMatchObject({ PHASE: 'Failed', READY: 'False', ADMIN: '8003', INBOUND: '9003', ENDPOINT: '' })
  })

  it('keeps spec and status apart: a status patch through the main resource changes nothing', async () => {
    await kubectl(['apply', '-f', '-'], JSON.stringify(anOrgAgent('initech')))
    await customObjects.patchNamespacedCustomObject(
      {
        group: 'idplane.io',
        version: 'v1alpha1',
        namespace: NAMESPACE,
        plural: 'orgagents',
        name: 'initech',
        body: { status: { phase: 'Ready' } },
      },
      MERGE_PATCH,
    )
    const live = JSON.parse(await kubectl(['get', 'orgagent', 'initech', '-n', NAMESPACE, '-o', 'json'])) as {
      status?: unknown
    }
    expect(live.status).toBeUndefined()
  })

  it.each([
    ['a missing orgId', { orgId: undefined }],
    ['an empty label', { label: '' }],
    ['an unknown pull policy', { imagePullPolicy: 'Sometimes' }],
  ])('rejects an OrgAgent with %s on the server', async (_case, spec) => {
    // --validate=false: the API server's CRD schema must refuse it, not kubectl's client-side check.
    const create = kubectl(['create', '--validate=false', '-f', '-'], JSON.stringify(anOrgAgent('invalid', spec)))
    await expect(create).rejects.toThrow(
      /OrgAgent "invalid" is invalid:[\s\S]*spec\.\w+: (Required|Unsupported|Invalid) value/,
    )
  })

  it('rejects a status with an unknown phase or a condition without a reason', async () => {
    await kubectl(['apply', '-f', '-'], JSON.stringify(anOrgAgent('umbrella')))
    const patch = (status: Record<string, unknown>) =>
      customObjects.patchNamespacedCustomObjectStatus(
        {
          group: 'idplane.io',
          version: 'v1alpha1',
          namespace: NAMESPACE,
          plural: 'orgagents',
          name: 'umbrella',
          body: { status },
        },
        MERGE_PATCH,
      )
    await expect(patch({ phase: 'Sleeping' })).rejects.toThrow(/422|Unsupported value/)
    await expect(patch({ conditions: [{ ...readyCondition('False', 'x'), reason: '' }] })).rejects.toThrow(
      /422|Invalid value/,
    )
  })
})
