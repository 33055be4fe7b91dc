import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ConflictError, InvalidStateError, UnavailableError } from '@idplane/common'
import type { AgentClients } from '../../agent-client/agent-clients'
import type { Principal } from '../../infra/auth/token.service'
import type { Config } from '../../infra/config'
import { SecretBox } from '../../infra/crypto/secret-box'
import type { PlatformAdmins } from '../memberships/platform-admins'
import { BaseWallet } from './base-wallet.entity'
import { BaseWalletService, NO_BASE_WALLET } from './base-wallet.service'
import type { BaseWalletFields, CloudWalletsRepository } from './cloud-wallets.repository'
import type { ManagedBaseAgent } from './managed-base-agent'

/**
 * How a configured base wallet and the platform's managed one relate (docs/decisions.md, Cloud wallet): the
 * repository, the managed agent and the agent client are replaced at the edge; GET /agent of the "external" agent
 * is a real HTTP server. The real managed agent: test/integration/cloud-wallet-managed.int.test.ts.
 */
const ADMIN: Principal = { kind: 'user', userId: 'u-1', email: 'root@example.test', sessionId: 's-1' }

let agentServer: Server
let externalEndpoint: string

beforeAll(async () => {
  agentServer = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
  })
  await new Promise<void>((resolve) => agentServer.listen(0, '127.0.0.1', resolve))
  externalEndpoint = `http://127.0.0.1:${(agentServer.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => agentServer.close(resolve))
})

function setUp(options: { mode: 'managed' | 'external'; row?: Partial<BaseWallet>; wallets?: number }) {
  const box = SecretBox.fromBase64(randomBytes(32).toString('base64'))
  let row: BaseWallet | undefined = options.row
    ? Object.assign(new BaseWallet(), { encryptedApiKey: box.seal('managed-key', 'platform'), ...options.row })
    : undefined
  const calls: string[] = []
  let reads = 0
  const repository = {
    findBaseWallet: async () => {
      reads++
      return row ?? null
    },
    countWallets: async () => options.wallets ?? 0,
    saveBaseWallet: async (fields: BaseWalletFields) => {
      row = Object.assign(new BaseWallet(), { ...fields, managed: false })
      return row
    },
  } as unknown as CloudWalletsRepository
  let settled: { kind: 'ready'; agentEndpoint: string } | undefined
  const managed = {
    ready: async () => {
      calls.push('ready')
      if (!row?.agentEndpoint) throw new UnavailableError('starting', 5)
      settled = { kind: 'ready', agentEndpoint: row.agentEndpoint }
      return settled
    },
    settled: () => settled,
    retire: async () => {
      calls.push('retire')
    },
  } as unknown as ManagedBaseAgent
  const admins = { isPlatformAdmin: async () => true } as unknown as PlatformAdmins
  const clients = {
    forTarget: (target: { endpoint: string }) => ({
      endpoint: target.endpoint,
      getStatus: async () => ({ label: 'external', endpoints: [], isInitialized: true }),
    }),
  } as unknown as AgentClients
  const config = {
    agents: { requestTimeoutMs: 2_000 },
    sections: { 'cloud-wallet': { baseAgent: options.mode, baseAgentWaitMs: 0 } },
  } as unknown as Config
  const service = new BaseWalletService(repository, box, admins, clients, managed, config)
  return { service, calls, reads: () => reads, row: () => row }
}

const configureBody = () => ({ agentEndpoint: externalEndpoint, apiKey: 'external-key', walletKey: 'external-wallet' })

describe('the configured and the managed base wallet', () => {
  it('external mode without a base wallet: 409 "No base wallet is configured", no managed agent', async () => {
    const { service, calls } = setUp({ mode: 'external' })
    await expect(service.client()).rejects.toThrow(new InvalidStateError(NO_BASE_WALLET))
    expect(calls).toEqual([])
  })

  it('managed mode without a base wallet: the managed agent is asked (503 while it starts)', async () => {
    const { service, calls } = setUp({ mode: 'managed' })
    await expect(service.client()).rejects.toBeInstanceOf(UnavailableError)
    expect(calls).toEqual(['ready'])
  })

  it('a managed agent that exists is run whatever the setting says', async () => {
    const { service, calls } = setUp({
      mode: 'external',
      row: { managed: true, agentEndpoint: 'http://127.0.0.1:18002' },
    })
    const client = (await service.client()) as unknown as { endpoint: string }
    expect(client.endpoint).toBe('http://127.0.0.1:18002')
    expect(calls).toEqual(['ready'])
  })

  it('a managed agent that answers already is used with one read of the row and no wait', async () => {
    const { service, calls, reads } = setUp({
      mode: 'managed',
      row: { managed: true, agentEndpoint: 'http://127.0.0.1:18002' },
    })
    await service.client()
    expect([calls, reads()]).toEqual([['ready'], 2])
    const client = (await service.client()) as unknown as { endpoint: string }
    expect(client.endpoint).toBe('http://127.0.0.1:18002')
    expect([calls, reads()]).toEqual([['ready'], 3])
  })

  it('a configured base wallet is used directly, without the managed agent', async () => {
    const { service, calls } = setUp({ mode: 'managed', row: { managed: false, agentEndpoint: externalEndpoint } })
    expect(((await service.client()) as unknown as { endpoint: string }).endpoint).toBe(externalEndpoint)
    expect(calls).toEqual([])
  })

  it('configure replaces a managed agent that holds no wallets and retires it', async () => {
    const { service, calls, row } = setUp({
      mode: 'managed',
      row: { managed: true, agentEndpoint: 'http://127.0.0.1:18002' },
    })
    const answer = await service.configure(ADMIN, configureBody())
    expect(answer).toMatchObject({ agentEndpoint: externalEndpoint, label: 'external' })
    expect(row()).toMatchObject({ managed: false, agentEndpoint: externalEndpoint })
    expect(calls).toEqual(['retire'])
  })

  it('configure is 409 while the managed agent holds wallets, and nothing changes', async () => {
    const { service, calls, row } = setUp({
      mode: 'managed',
      row: { managed: true, agentEndpoint: 'http://127.0.0.1:18002' },
      wallets: 2,
    })
    await expect(service.configure(ADMIN, configureBody())).rejects.toThrow(ConflictError)
    await expect(service.configure(ADMIN, configureBody())).rejects.toThrow(/managed base agent/)
    expect(row()).toMatchObject({ managed: true, agentEndpoint: 'http://127.0.0.1:18002' })
    expect(calls).toEqual([])
  })
})
