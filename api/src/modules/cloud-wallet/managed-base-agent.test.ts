import { randomBytes } from 'node:crypto'
import { Registry } from 'prom-client'
import { silentLogger, UnavailableError } from '@idplane/common'
import type { PortPair } from '@idplane/common/ports'
import {
  AgentRuntime,
  BASE_WALLET_AGENT_ID,
  type AgentLaunch,
  type AgentRuntimeStatus,
  type ProvisionOptions,
} from '../../agent-runtime/agent-runtime'
import type { Config } from '../../infra/config'
import { SecretBox } from '../../infra/crypto/secret-box'
import type { AgentPortsRepository } from '../agents/agent-ports.repository'
import { BASE_WALLET_SCOPE, BaseWallet } from './base-wallet.entity'
import { CloudWalletMetrics } from './cloud-wallet-metrics'
import type { CloudWalletsRepository, ManagedBaseWalletKeys } from './cloud-wallets.repository'
import { ManagedBaseAgent } from './managed-base-agent'

/**
 * The managed agent's start and wait logic, with the runtime and the repository replaced at the edge (the real
 * process runtime and database: test/integration/cloud-wallet-managed.int.test.ts).
 */
class ScriptedRuntime extends AgentRuntime {
  public readonly kind = 'process'
  public launches: AgentLaunch[] = []
  public removed: string[] = []
  /** The answers of successive provision calls; each waits for its `release` unless it is already released. */
  public answers: { status: AgentRuntimeStatus; released: Promise<void>; release: () => void }[] = []

  public script(status: AgentRuntimeStatus, isImmediate = true): () => void {
    let release = () => undefined as void
    const released = isImmediate ? Promise.resolve() : new Promise<void>((resolve) => (release = resolve))
    this.answers.push({ status, released, release })
    return release
  }

  public async provision(launch: AgentLaunch, options: ProvisionOptions = {}): Promise<AgentRuntimeStatus> {
    this.launches.push(launch)
    const answer = this.answers.shift()
    if (!answer) throw new Error('No scripted answer')
    const aborted = new Promise<void>((resolve) => options.signal?.addEventListener('abort', () => resolve()))
    await Promise.race([answer.released, aborted])
    return options.signal?.aborted ? { phase: 'pending' } : answer.status
  }

  public async status(): Promise<AgentRuntimeStatus> {
    return { phase: 'absent' }
  }

  public async stop(): Promise<void> {}

  public async remove(orgId: string): Promise<void> {
    this.removed.push(orgId)
  }

  public async close(): Promise<void> {}
}

function setUp(waitMs: number) {
  const runtime = new ScriptedRuntime()
  const box = SecretBox.fromBase64(randomBytes(32).toString('base64'))
  let row: BaseWallet | undefined
  const wallets = {
    findBaseWallet: async () => row ?? null,
    findOrCreateManagedBaseWallet: async (keys: ManagedBaseWalletKeys) => {
      row ??= Object.assign(new BaseWallet(), { ...keys, managed: true, agentEndpoint: null })
      return row
    },
    recordManagedEndpoint: async (endpoint: string) => {
      if (!row?.managed) return false
      row.agentEndpoint = endpoint
      return true
    },
    dropManagedAgentSchema: async () => undefined,
    countWallets: async () => 0,
  } as unknown as CloudWalletsRepository
  const ports: PortPair = { adminPort: 18002, inboundPort: 19002 }
  const portsRepository = { allocateForBaseWallet: async () => ports } as unknown as AgentPortsRepository
  const config = {
    agents: { portCounterStart: { admin: 18001, inbound: 19001 } },
    database: { kind: 'pglite' },
    sections: { 'cloud-wallet': { baseAgent: 'managed', baseAgentWaitMs: waitMs } },
  } as unknown as Config
  const registry = new Registry()
  const metrics = new CloudWalletMetrics(registry, () => wallets.countWallets())
  const managed = new ManagedBaseAgent(wallets, box, runtime, portsRepository, metrics, config, silentLogger)
  return { managed, runtime, box, ports, registry, row: () => row }
}

const READY: AgentRuntimeStatus = { phase: 'ready', controllerEndpoint: 'http://127.0.0.1:18002' }

describe('ManagedBaseAgent', () => {
  it('starts the agent once, on its recorded ports, with the sealed keys of the row, its API key as event token', async () => {
    const { managed, runtime, box, ports, registry, row } = setUp(5_000)
    runtime.script(READY)
    const [first, second] = await Promise.all([managed.ready(), managed.ready()])
    expect(first).toEqual({ kind: 'ready', agentEndpoint: 'http://127.0.0.1:18002' })
    expect(second).toEqual(first)
    expect(runtime.launches).toHaveLength(1)
    const launch = runtime.launches[0] as AgentLaunch
    expect(launch).toMatchObject({ orgId: BASE_WALLET_AGENT_ID, ports })
    const secrets = await launch.secrets()
    const apiKey = box.open(row()?.encryptedApiKey ?? '', BASE_WALLET_SCOPE)
    // The wallet event route authenticates the base agent by its API key (docs/decisions.md).
    expect(secrets).toEqual({
      apiKey,
      walletKey: box.open(row()?.encryptedWalletKey ?? '', BASE_WALLET_SCOPE),
      eventToken: apiKey,
    })
    expect(secrets.apiKey).not.toBe(secrets.walletKey)
    expect(row()?.agentEndpoint).toBe('http://127.0.0.1:18002')
    expect(await registry.metrics()).toMatch(
      /idplane_api_cloud_wallet_base_agent_start_duration_seconds_count\{runtime="process",result="success"\} 1/,
    )
  })

  it('answers 503 with Retry-After while the agent is slower than the wait, and finds it ready later', async () => {
    const { managed, runtime } = setUp(50)
    const release = runtime.script(READY, false)
    const early = await managed.ready().catch((error: unknown) => error)
    expect(early).toBeInstanceOf(UnavailableError)
    expect(early).toMatchObject({ retryAfterSeconds: 5, message: expect.stringMatching(/is starting/) })
    expect(managed.settled()).toBeUndefined()
    release()
    await expect(managed.ready()).resolves.toEqual({ kind: 'ready', agentEndpoint: 'http://127.0.0.1:18002' })
    expect(managed.settled()).toEqual({ kind: 'ready', agentEndpoint: 'http://127.0.0.1:18002' })
    expect(runtime.launches).toHaveLength(1)
  })

  it('answers 503 naming the reason of a failed start, and tries again on the next call', async () => {
    const { managed, runtime, registry } = setUp(5_000)
    runtime.script({ phase: 'failed', reason: 'Agent program not found at /x (run npm run build)' })
    runtime.script(READY)
    const failed = await managed.ready().catch((error: unknown) => error)
    expect(failed).toBeInstanceOf(UnavailableError)
    expect((failed as Error).message).toMatch(/could not start \(Agent program not found/)
    expect(managed.settled()).toBeUndefined()
    await expect(managed.ready()).resolves.toMatchObject({ kind: 'ready' })
    expect(runtime.launches).toHaveLength(2)
    expect(await registry.metrics()).toMatch(/result="failure"\} 1/)
  })

  it('retire stops a start under way and removes the agent; close makes later calls 503', async () => {
    const { managed, runtime } = setUp(50)
    runtime.script(READY, false)
    await managed.ready().catch(() => undefined)
    await managed.retire()
    expect(managed.settled()).toBeUndefined()
    expect(runtime.removed).toEqual([BASE_WALLET_AGENT_ID])
    await managed.close()
    await expect(managed.ready()).rejects.toThrow(/shutting down/)
  })
})
