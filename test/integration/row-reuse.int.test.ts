import { randomUUID } from 'node:crypto'
import { EntityManager } from '@mikro-orm/postgresql'
import { BASE_WALLET_SCOPE } from '../../api/src/modules/cloud-wallet/base-wallet.entity'
import {
  CloudWalletsRepository,
  WALLET_ROW_REUSE_MS,
} from '../../api/src/modules/cloud-wallet/cloud-wallets.repository'
import { User } from '../../api/src/modules/users/user.entity'
import { SHARED_ROW_REUSE_MS } from '../../api/src/infra/db/recent-reads'
import { hashToken } from '../../api/src/infra/crypto/token-hash'
import { AgentsRepository } from '../../api/src/modules/agents/agents.repository'
import { OrgAgent } from '../../api/src/modules/agents/org-agent.entity'
import { MembershipsRepository } from '../../api/src/modules/memberships/memberships.repository'
import { Organization } from '../../api/src/modules/orgs/organization.entity'
import { startIdleApiRuntime, type IdleApiRuntime } from '../helpers/api-runtime'

/**
 * Rows the hottest paths read again and again, read once (docs/decisions.md, "Rows read once for many calls"): the
 * base wallet's and a user's wallet row for WALLET_ROW_REUSE_MS, and an agent's address, a user's roles and an event
 * token's organization for SHARED_ROW_REUSE_MS. Runs on the path the environment chooses.
 */
describe('rows read once for many calls', () => {
  let api: IdleApiRuntime
  let em: EntityManager

  beforeAll(async () => {
    api = await startIdleApiRuntime()
    em = api.runtime.container.get(EntityManager)
  }, 60_000)

  afterAll(async () => {
    jest.useRealTimers()
    await api?.close()
  })

  afterEach(() => {
    jest.restoreAllMocks()
  })

  /** A new user's id. */
  async function aUser(): Promise<string> {
    const fork = em.fork()
    const user = fork.create(User, {
      email: `reuse-${randomUUID()}@example.test`,
      firstName: 'Row',
      lastName: 'Reuse',
      passwordHash: 'scrypt$unused',
      isEmailVerified: true,
    })
    await fork.flush()
    return user.id
  }

  /** Counts the statements whose text contains `marker`. */
  function countStatements(marker: string): () => number {
    const execute = jest.spyOn(EntityManager.prototype, 'execute')
    const find = jest.spyOn(EntityManager.prototype, 'findOne')
    return () =>
      execute.mock.calls.filter(([sql]) => String(sql).includes(marker)).length +
      find.mock.calls.filter(([entity]) => (entity as { name?: string }).name === marker).length
  }

  describe('wallet rows', () => {
    const wallets = () => api.runtime.container.get(CloudWalletsRepository)

    it("reuses a user's wallet row for a while, and never remembers that there was none", async () => {
      jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'queueMicrotask'] })
      try {
        const reads = countStatements('CloudWallet')
        const userId = await aUser()
        expect(await wallets().recentWalletOfUser(userId)).toBeNull()
        const created = await wallets().create({
          userId,
          email: 'holder@example.test',
          tenantId: randomUUID(),
          label: 'Holder',
        })
        // None was not remembered: the wallet created meanwhile is found at once.
        const found = await wallets().recentWalletOfUser(userId)
        expect(found?.id).toBe(created.id)
        expect(reads()).toBe(2)
        expect(await wallets().recentWalletOfUser(userId)).toBe(found)
        expect(reads()).toBe(2)
        jest.advanceTimersByTime(WALLET_ROW_REUSE_MS)
        expect((await wallets().recentWalletOfUser(userId))?.id).toBe(created.id)
        expect(reads()).toBe(3)
        // By its tenant (the base agent's events name it): the same, remembered apart.
        expect((await wallets().recentWalletOfTenant(created.tenantId))?.id).toBe(created.id)
        expect((await wallets().recentWalletOfTenant(created.tenantId))?.id).toBe(created.id)
        expect(await wallets().recentWalletOfTenant(randomUUID())).toBeNull()
        expect(reads()).toBe(5)
      } finally {
        jest.useRealTimers()
      }
    })

    it('never answers a call made after a wallet is created with a read begun before it', async () => {
      const userId = await aUser()
      const tenantId = randomUUID()
      // Hold the first reads (begun before the create) until the create is done; later reads go to the database.
      let releaseEarlyReads!: () => void
      const earlyReadsHeld = new Promise<void>((resolve) => (releaseEarlyReads = resolve))
      const findForUser = jest.spyOn(wallets(), 'findForUser').mockImplementationOnce(async () => {
        await earlyReadsHeld
        return null
      })
      // The tenant read is the next findOne of any fork (create uses none).
      const findOne = jest.spyOn(EntityManager.prototype, 'findOne').mockImplementationOnce(async () => {
        await earlyReadsHeld
        return null
      })
      const beforeByUser = wallets().recentWalletOfUser(userId)
      const beforeByTenant = wallets().recentWalletOfTenant(tenantId)
      const created = await wallets().create({ userId, email: 'early@example.test', tenantId, label: 'Early' })
      const afterByUser = wallets().recentWalletOfUser(userId)
      const afterByTenant = wallets().recentWalletOfTenant(tenantId)
      releaseEarlyReads()
      expect(await beforeByUser).toBeNull()
      expect((await afterByUser)?.id).toBe(created.id)
      expect((await afterByTenant)?.id).toBe(created.id)
      expect(await beforeByTenant).toBeNull()
      // Each key read twice: the held read, then the database (findForUser's own findOne counts for the user).
      expect(findForUser).toHaveBeenCalledTimes(2)
      expect(findOne).toHaveBeenCalledTimes(3)
    })

    it("reuses the base wallet's row for a while; this process's writes replace it at once", async () => {
      jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'queueMicrotask'] })
      try {
        const reads = countStatements('BaseWallet')
        expect(await wallets().recentBaseWallet()).toBeNull()
        const fields = { encryptedApiKey: 'sealed-a', encryptedWalletKey: 'sealed-w', configuredBy: null }
        await wallets().saveBaseWallet({ ...fields, agentEndpoint: 'http://agent-a.example.com:8001' })
        const before = reads()
        const first = await wallets().recentBaseWallet()
        expect(first?.agentEndpoint).toBe('http://agent-a.example.com:8001')
        expect(await wallets().recentBaseWallet()).toBe(first)
        expect(reads()).toBe(before + 1)

        // Changed by another replica: seen once the reuse time is over.
        await em
          .fork()
          .getConnection()
          .execute(`update base_wallets set agent_endpoint = 'http://agent-b.example.com:8001' where scope = ?`, [
            BASE_WALLET_SCOPE,
          ])
        expect((await wallets().recentBaseWallet())?.agentEndpoint).toBe('http://agent-a.example.com:8001')
        jest.advanceTimersByTime(WALLET_ROW_REUSE_MS)
        expect((await wallets().recentBaseWallet())?.agentEndpoint).toBe('http://agent-b.example.com:8001')

        // Changed here: seen at once.
        await wallets().saveBaseWallet({ ...fields, agentEndpoint: 'http://agent-c.example.com:8001' })
        expect((await wallets().recentBaseWallet())?.agentEndpoint).toBe('http://agent-c.example.com:8001')
      } finally {
        jest.useRealTimers()
      }
    })
  })

  describe('rows another replica may change', () => {
    // The reuse time is read from Date.now: a fake clock moves it; timers stay real for the database's sake.
    beforeEach(() => {
      jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'queueMicrotask'] })
    })
    afterEach(() => {
      jest.useRealTimers()
    })
    const sql = (statement: string, params: unknown[]) => em.fork().getConnection().execute(statement, params)

    async function anOrganizationWithAgent(eventTokenHash: string): Promise<string> {
      const fork = em.fork()
      const suffix = randomUUID().slice(0, 8)
      const org = fork.create(Organization, { name: `Reuse ${suffix}`, slug: `reuse-${suffix}`, description: 'Reuse' })
      fork.create(OrgAgent, {
        organization: org,
        label: 'Reused',
        runtime: 'process',
        status: 'DID_CREATED',
        controllerEndpoint: 'http://agent-a.example.com:8002',
        encryptedApiKey: 'sealed',
        encryptedWalletKey: 'sealed',
        eventTokenHash,
      })
      await fork.flush()
      return org.id
    }

    it("reuse an agent's address; another replica's change is seen after the reuse time, this process's at once", async () => {
      const agents = api.runtime.container.get(AgentsRepository)
      const orgId = await anOrganizationWithAgent(hashToken(randomUUID()))
      const reads = countStatements('controller_endpoint, encrypted_api_key')
      expect((await agents.addressOf(orgId))?.controllerEndpoint).toBe('http://agent-a.example.com:8002')
      expect((await agents.addressOf(orgId))?.controllerEndpoint).toBe('http://agent-a.example.com:8002')
      expect(reads()).toBe(1)

      await sql('update org_agents set controller_endpoint = ? where organization_id = ?', [
        'http://agent-b.example.com:8002',
        orgId,
      ])
      expect((await agents.addressOf(orgId))?.controllerEndpoint).toBe('http://agent-a.example.com:8002')
      jest.advanceTimersByTime(SHARED_ROW_REUSE_MS)
      expect((await agents.addressOf(orgId))?.controllerEndpoint).toBe('http://agent-b.example.com:8002')

      await agents.update(orgId, { controllerEndpoint: 'http://agent-c.example.com:8002' })
      expect((await agents.addressOf(orgId))?.controllerEndpoint).toBe('http://agent-c.example.com:8002')
      expect(reads()).toBe(3)
    })

    it("reuse an event token's organization; a token replaced here is refused at once", async () => {
      const agents = api.runtime.container.get(AgentsRepository)
      const oldHash = hashToken(randomUUID())
      const orgId = await anOrganizationWithAgent(oldHash)
      const execute = jest.spyOn(em.getConnection(), 'execute')
      const reads = () => execute.mock.calls.filter(([sql]) => String(sql).includes('where event_token_hash')).length
      expect((await agents.findByEventTokenHash(oldHash))?.organizationId).toBe(orgId)
      expect((await agents.findByEventTokenHash(oldHash))?.organizationId).toBe(orgId)
      expect(reads()).toBe(1)

      await agents.setEventTokenHash(orgId, hashToken(randomUUID()))
      expect(await agents.findByEventTokenHash(oldHash)).toBeUndefined()
      // An unknown token is read every time: nothing remembers that a token was refused.
      expect(await agents.findByEventTokenHash(oldHash)).toBeUndefined()
      expect(reads()).toBe(3)
    })

    it("reuse a user's roles; another replica's change is seen after the reuse time, this process's at once", async () => {
      const memberships = api.runtime.container.get(MembershipsRepository)
      const orgId = await anOrganizationWithAgent(hashToken(randomUUID()))
      const userId = await aUser()
      const reads = countStatements('from user_org_roles m join org_roles')
      expect(await memberships.recentRoleNamesOf(orgId, userId)).toEqual([])
      expect(await memberships.recentRoleNamesOf(orgId, userId)).toEqual([])
      expect(reads()).toBe(1)

      // Granted here: seen at once.
      await memberships.inOwnContext(async () =>
        memberships.add(orgId, userId, [await memberships.definitionByName('admin')]),
      )
      expect(await memberships.recentRoleNamesOf(orgId, userId)).toEqual(['admin'])

      // Removed by another replica: seen once the reuse time is over.
      await sql('delete from user_org_roles where organization_id = ? and user_id = ?', [orgId, userId])
      expect(await memberships.recentRoleNamesOf(orgId, userId)).toEqual(['admin'])
      jest.advanceTimersByTime(SHARED_ROW_REUSE_MS)
      expect(await memberships.recentRoleNamesOf(orgId, userId)).toEqual([])
      expect(reads()).toBe(3)
    })
  })
})
