import { rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import request from 'supertest'
import * as k8s from '@kubernetes/client-node'
import { ORGAGENT_GROUP, ORGAGENT_PLURAL, ORGAGENT_VERSION, type OrgAgent } from '@idplane/common/orgagent.types'
import { startApi, type TestApi } from '../helpers/api'
import { aUserWithToken, anOrganizationWith, type TestUser } from '../helpers/tokens'
import { startFakeKubeApiServer, type FakeKubeApiServer } from '../helpers/fake-kube-apiserver'
import { startProcessKubelet, type ProcessKubelet } from '../helpers/process-kubelet'
import { writeFakeAgentPrograms } from '../helpers/fake-agent-program'
import { createNamespace, installCrd } from './support/kube-servers'
import { eventually } from './support/fixtures'
import { operatorEnv, startOperator, type RunningOperator } from './support/operator-harness'
import { agentResourceName } from '../../api/src/agent-runtime/kubernetes-runtime'
import { BASE_WALLET_AGENT_ID } from '../../api/src/agent-runtime/agent-runtime'
import { CloudWalletsRepository } from '../../api/src/modules/cloud-wallet/cloud-wallets.repository'
import { ManagedBaseAgent } from '../../api/src/modules/cloud-wallet/managed-base-agent'

/** Pods whose OrgAgent label starts with this run an agent that never answers. */
const UNREACHABLE_LABEL = 'Unreachable'
const podIP = `127.${1 + (process.pid % 250)}.${1 + Math.floor(Math.random() * 250)}.7`

describe('the Kubernetes agent runtime with the operator (fake kube-apiserver)', () => {
  const programs = writeFakeAgentPrograms(tmpdir())
  let server: FakeKubeApiServer
  let kubelet: ProcessKubelet
  let operator: RunningOperator
  let api: TestApi
  let namespace: string
  // The API reads its cluster from a file, as in a pod; removed after the suite.
  const kubeconfigFile = path.join(tmpdir(), `idplane-api-kubeconfig-${process.pid}.json`)

  beforeAll(async () => {
    server = await startFakeKubeApiServer()
    await installCrd(server.kubeConfig())
    namespace = await createNamespace(server.kubeConfig())
    kubelet = await startProcessKubelet({
      kubeConfig: server.kubeConfig(),
      podIP,
      command: (pod) => {
        const label = pod.spec?.containers[0]?.env?.find((variable) => variable.name === 'AGENT_LABEL')?.value ?? ''
        const mode = label.startsWith(UNREACHABLE_LABEL) ? 'never-ready' : 'healthy'
        return { command: [process.execPath, programs.path(mode)], env: { FAKE_AGENT_HOST: podIP } }
      },
      onOutput: process.env.IDPLANE_TEST_LOGS ? (line) => console.log(line) : undefined,
    })
    operator = await startOperator(
      server.kubeConfig(),
      operatorEnv(namespace, {
        OPERATOR_AGENT_URL_TEMPLATE: `http://${podIP}:{adminPort}`,
        OPERATOR_AGENT_POLL_ATTEMPTS: '10',
        LOG_LEVEL: 'warn',
      }),
    )
    writeFileSync(kubeconfigFile, server.kubeConfig().exportConfig(), { mode: 0o600 })
    api = await startApi({
      AGENT_RUNTIME: 'kubernetes',
      KUBECONFIG: kubeconfigFile,
      AGENT_NAMESPACE: namespace,
      AGENT_IMAGE: 'idplane:test',
      AGENT_IMAGE_PULL_POLICY: 'Never',
      API_INTERNAL_URL: 'http://idplane-api.idplane.svc:5000',
      AGENT_POLL_ATTEMPTS: '3',
      AGENT_POLL_INTERVAL_MS: '300',
    })
  }, 120_000)

  afterAll(async () => {
    await api?.stop()
    await operator?.stop()
    await kubelet?.stop()
    await server?.stop()
    programs.remove()
    rmSync(kubeconfigFile, { force: true })
  }, 60_000)

  async function anOwnedOrganization(): Promise<{ owner: TestUser; orgId: string }> {
    const owner = await aUserWithToken(api)
    return { owner, orgId: await anOrganizationWith(api, [{ user: owner, roles: ['owner'] }]) }
  }

  async function settledHealth(owner: TestUser, orgId: string): Promise<Record<string, unknown>> {
    return eventually(
      async () => {
        const response = await request(api.app)
          .get(`/v1/orgs/${orgId}/agents/health`)
          .set('Authorization', `Bearer ${owner.token}`)
        const data = response.body.data as Record<string, unknown>
        return data.status === 'DID_CREATED' || data.status === 'FAILED' ? data : undefined
      },
      { timeoutMs: 30_000, what: 'agent provisioning settled' },
    )
  }

  const custom = () => server.kubeConfig().makeApiClient(k8s.CustomObjectsApi)

  it('creates the Secret and the OrgAgent, mirrors ports and endpoint, and creates the primary DID', async () => {
    const { owner, orgId } = await anOwnedOrganization()
    const created = await request(api.app)
      .post(`/v1/orgs/${orgId}/agents/spinup`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ label: 'Acme wallet' })
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({ status: 'PENDING', runtime: 'kubernetes', adminPort: null })

    const health = await settledHealth(owner, orgId)
    expect(health.failureReason).toBeNull()
    expect(health).toMatchObject({
      status: 'DID_CREATED',
      adminPort: 8002,
      inboundPort: 9002,
      controllerEndpoint: `http://${podIP}:8002`,
      isAnswering: true,
    })

    const name = agentResourceName(orgId)
    const resource = (await custom().getNamespacedCustomObject({
      group: ORGAGENT_GROUP,
      version: ORGAGENT_VERSION,
      plural: ORGAGENT_PLURAL,
      namespace,
      name,
    })) as OrgAgent
    expect(resource.spec).toMatchObject({
      orgId,
      label: 'Acme wallet',
      image: 'idplane:test',
      imagePullPolicy: 'Never',
      secretName: name,
      eventUrl: 'http://idplane-api.idplane.svc:5000/v1/internal/agent-events',
      // The agent reads and writes the platform ledger on the same API.
      env: expect.arrayContaining([{ name: 'AGENT_LEDGER_URL', value: 'http://idplane-api.idplane.svc:5000' }]),
    })
    const secret = await server.kubeConfig().makeApiClient(k8s.CoreV1Api).readNamespacedSecret({ name, namespace })
    expect(Object.keys(secret.data ?? {}).sort()).toEqual(
      expect.arrayContaining(['AGENT_API_KEY', 'AGENT_EVENT_TOKEN', 'AGENT_WALLET_KEY']),
    )

    const dids = await request(api.app).get(`/v1/orgs/${orgId}/dids`).set('Authorization', `Bearer ${owner.token}`)
    expect(dids.body.data).toEqual([
      expect.objectContaining({ isPrimaryDid: true, did: expect.stringMatching(/^did:key:/) }),
    ])
  }, 60_000)

  it('reports an agent the operator marked Failed through the health endpoint', async () => {
    const { owner, orgId } = await anOwnedOrganization()
    await request(api.app)
      .post(`/v1/orgs/${orgId}/agents/spinup`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ label: `${UNREACHABLE_LABEL} wallet` })
    const health = await settledHealth(owner, orgId)
    expect(health).toMatchObject({
      status: 'FAILED',
      adminPort: 8003,
      inboundPort: 9003,
      controllerEndpoint: null,
      isAnswering: false,
    })
    expect(health.failureReason).toMatch(/did not answer 200 in 10 attempts/)
  }, 60_000)

  it('deletes the OrgAgent and its Secret when the organization is deleted', async () => {
    const { owner, orgId } = await anOwnedOrganization()
    await request(api.app)
      .post(`/v1/orgs/${orgId}/agents/spinup`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ label: 'Doomed wallet' })
    expect(await settledHealth(owner, orgId)).toMatchObject({ status: 'DID_CREATED' })
    const name = agentResourceName(orgId)
    const deleted = await request(api.app).delete(`/v1/orgs/${orgId}`).set('Authorization', `Bearer ${owner.token}`)
    expect(deleted.status).toBe(200)
    const statusOf = (read: Promise<unknown>) =>
      read.then(
        () => 200,
        (error: unknown) => (error as { code?: number }).code,
      )
    // The operator's finalizer releases the ports first; then the OrgAgent is gone.
    await eventually(
      async () =>
        (await statusOf(
          custom().getNamespacedCustomObject({
            group: ORGAGENT_GROUP,
            version: ORGAGENT_VERSION,
            plural: ORGAGENT_PLURAL,
            namespace,
            name,
          }),
        )) === 404
          ? true
          : undefined,
      { timeoutMs: 30_000, what: 'OrgAgent deleted' },
    )
    const core = server.kubeConfig().makeApiClient(k8s.CoreV1Api)
    expect(await statusOf(core.readNamespacedSecret({ name, namespace }))).toBe(404)
  }, 60_000)

  // Last: it takes the next ports after the organizations' agents above.
  it("runs the platform's base-wallet agent as the OrgAgent agent-base-wallet, posting to the wallet event route", async () => {
    const managed = api.runtime.container.get(ManagedBaseAgent)
    const state = await eventually(() => managed.ready().catch(() => undefined), {
      timeoutMs: 60_000,
      what: 'managed base agent ready',
    })
    expect(state).toEqual({
      kind: 'ready',
      agentEndpoint: expect.stringMatching(new RegExp(`^http://${podIP}:80\\d\\d$`)),
    })
    const base = await api.runtime.container.get(CloudWalletsRepository).findBaseWallet()
    expect(base).toMatchObject({ managed: true, agentEndpoint: state?.kind === 'ready' ? state.agentEndpoint : '' })

    const name = agentResourceName(BASE_WALLET_AGENT_ID)
    expect(name).toBe('agent-base-wallet')
    const resource = (await custom().getNamespacedCustomObject({
      group: ORGAGENT_GROUP,
      version: ORGAGENT_VERSION,
      plural: ORGAGENT_PLURAL,
      namespace,
      name,
    })) as OrgAgent
    expect(resource.spec).toMatchObject({ orgId: 'base-wallet', image: 'idplane:test', secretName: name })
    // Its events go to the wallet event route, its API key being its event token (docs/decisions.md).
    expect(resource.spec.eventUrl).toBe('http://idplane-api.idplane.svc:5000/v1/internal/wallet-agent-events')
    const secret = await server.kubeConfig().makeApiClient(k8s.CoreV1Api).readNamespacedSecret({ name, namespace })
    // On PostgreSQL the Secret also carries the database URL, and the agent gets a schema of its own.
    const isPostgres = api.config.database.kind === 'postgres'
    expect(Object.keys(secret.data ?? {}).sort()).toEqual(
      ['AGENT_API_KEY', ...(isPostgres ? ['AGENT_DATABASE_URL'] : []), 'AGENT_EVENT_TOKEN', 'AGENT_WALLET_KEY'].sort(),
    )
    expect(secret.data?.AGENT_EVENT_TOKEN).toBe(secret.data?.AGENT_API_KEY)
    expect(resource.spec.env).toEqual(
      expect.arrayContaining([{ name: 'AGENT_LEDGER_URL', value: 'http://idplane-api.idplane.svc:5000' }]),
    )
    if (isPostgres) {
      expect(resource.spec.env).toEqual(
        expect.arrayContaining([{ name: 'AGENT_DATABASE_SCHEMA', value: 'agent_base_wallet' }]),
      )
    }
  }, 90_000)
})
