import { AsyncResource } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import { EntityManager } from '@mikro-orm/postgresql'
import { RequestContext } from '@mikro-orm/core'
import { AgentsRepository } from '../../api/src/modules/agents/agents.repository'
import { startIdleApiRuntime, type IdleApiRuntime } from '../helpers/api-runtime'

/**
 * docs/decisions.md, "A transaction never waits for a read shared outside it": on the embedded database (one
 * connection) a read that a transaction joined, begun outside it, waited for that transaction, which waited for
 * the read. Through the API's container and its real database (PGlite here unless DATABASE_URL is set).
 */
describe('a read shared by RecentReads and a transaction', () => {
  let api: IdleApiRuntime

  beforeAll(async () => {
    api = await startIdleApiRuntime()
  }, 120_000)

  afterAll(async () => {
    await api?.close()
  })

  it("does not make a transaction wait for a read begun outside it (an agent event's handler and a client's poll)", async () => {
    const em = api.runtime.container.get(EntityManager)
    const agents = api.runtime.container.get(AgentsRepository)
    const orgId = randomUUID()
    let outside: Promise<unknown> | undefined
    // A client's read in a context of its own, outside the transaction (bound here, before the transaction exists).
    const clientReads = AsyncResource.bind(() => RequestContext.create(em.fork(), () => agents.addressOf(orgId)))
    const inTransaction = RequestContext.create(em, () =>
      agents.transactional(async () => {
        // The transaction holds the connection from here on.
        await em.execute('select 1')
        // The client's read is in flight when the event's handler needs the same row.
        outside = clientReads()
        await new Promise((resolve) => setTimeout(resolve, 50))
        return agents.addressOf(orgId)
      }),
    )
    const deadline = new Promise((_, reject) => setTimeout(() => reject(new Error('the transaction waited')), 15_000))
    await expect(Promise.race([inTransaction, deadline])).resolves.toBeNull()
    await expect(outside).resolves.toBeNull()
  }, 30_000)
})
