import { randomUUID } from 'node:crypto'
import { EntityManager } from '@mikro-orm/postgresql'
import { ConnectionsRepository } from '../../api/src/modules/connections/connections.repository'
import { QuestionAnswersRepository } from '../../api/src/modules/messages/question-answers.repository'
import { AgentEventsRepository } from '../../api/src/modules/agents/agent-events.repository'
import { WebhookDeliveriesRepository } from '../../api/src/modules/webhooks/webhook-deliveries.repository'
import type { AgentEvent } from '@idplane/common/agent-contract/events'
import { startIdleApiRuntime, type IdleApiRuntime } from '../helpers/api-runtime'
import { aTenantEvent, aTenantWebhook } from '../helpers/webhook-fixtures'

/**
 * The exchange path's statements prepared by name in the caller's transaction (BaseRepository.runPreparedInTransaction):
 * an agent event batch's insert, its webhook deliveries' insert, and the locking read of an exchange row. They run on
 * the transaction's connection (rolled back with it, holding its locks), and never outside a transaction that has
 * ended. Runs on the path the environment chooses (PostgreSQL, or PGlite behind its socket).
 */
describe('prepared statements in the caller transaction', () => {
  let api: IdleApiRuntime
  let em: EntityManager
  let deliveries: WebhookDeliveriesRepository
  let connections: ConnectionsRepository
  let events: AgentEventsRepository
  let questions: QuestionAnswersRepository
  const orgId = randomUUID()

  beforeAll(async () => {
    api = await startIdleApiRuntime()
    em = api.runtime.container.get(EntityManager)
    deliveries = api.runtime.container.get(WebhookDeliveriesRepository)
    connections = api.runtime.container.get(ConnectionsRepository)
    events = api.runtime.container.get(AgentEventsRepository)
    questions = api.runtime.container.get(QuestionAnswersRepository)
    await em.getConnection().execute(
      `insert into organizations (id, name, slug, description, logo_url, is_public, created_at, updated_at)
         values (?, 'Prepared', ?, '', '', false, now(), now())`,
      [orgId, `prepared-${orgId}`],
    )
  }, 60_000)

  afterAll(async () => {
    await api?.close()
  })

  const storedDeliveries = async (eventId: string) =>
    (
      await em
        .getConnection()
        .execute<{ count: string }[]>('select count(*) as count from webhook_deliveries where event_id = ?', [eventId])
    )[0].count

  /** An agent's event as the event route takes it. */
  const anAgentEvent = (id: string, record: Record<string, unknown> = {}): AgentEvent =>
    ({
      id,
      kind: 'connection',
      agentLabel: 'prepared-agent',
      occurredAt: new Date().toISOString(),
      record,
    }) as AgentEvent

  it('stores deliveries and events in the transaction: seen inside it, gone with its rollback', async () => {
    await aTenantWebhook(em.getConnection(), 'tenant-prepared')
    const event = aTenantEvent('tenant-prepared')
    const eventId = `prepared-${randomUUID()}`
    const rollback = new Error('roll back')
    await expect(
      deliveries.transactional(async () => {
        expect(await deliveries.addForEvents([event])).toBe(1)
        expect([...(await events.insertNew(orgId, [anAgentEvent(eventId)]))]).toEqual([eventId])
        // The transaction's own statements see both rows: the prepared inserts ran on its connection.
        const [seen] = await em.execute<{ deliveries: string; events: string }[]>(
          `select (select count(*) from webhook_deliveries where event_id = ?) as deliveries,
                  (select count(*) from agent_events where event_id = ?) as events`,
          [event.id, eventId],
        )
        expect([Number(seen.deliveries), Number(seen.events)]).toEqual([1, 1])
        throw rollback
      }),
    ).rejects.toBe(rollback)
    expect(Number(await storedDeliveries(event.id))).toBe(0)
    // Rolled back, the event is new again.
    const stored = await events.transactional(() => events.insertNew(orgId, [anAgentEvent(eventId)]))
    expect([...stored]).toEqual([eventId])
  })

  it('stores a batch of agent events in order, the first of two equal ids, each once', async () => {
    const [a, b] = [`prepared-a-${randomUUID()}`, `prepared-b-${randomUUID()}`]
    const batch = [
      anAgentEvent(a, { n: 1, text: 'quote " and \\ backslash' }),
      anAgentEvent(b),
      anAgentEvent(a, { n: 2 }),
    ]
    const stored = await events.transactional(() => events.insertNew(orgId, batch))
    expect([...stored].sort()).toEqual([a, b].sort())
    const [row] = await em
      .getConnection()
      .execute<
        { record: Record<string, unknown> }[]
      >('select record from agent_events where organization_id = ? and event_id = ?', [orgId, a])
    expect(row.record).toEqual({ n: 1, text: 'quote " and \\ backslash' })
    expect([...(await events.transactional(() => events.insertNew(orgId, batch)))]).toEqual([])
  })

  it('refuses a statement in a transaction that has ended (a timer started inside it), storing nothing', async () => {
    const event = aTenantEvent('tenant-prepared')
    let late: Promise<unknown> = Promise.resolve()
    let ended = (): void => undefined
    const transactionEnded = new Promise<void>((resolve) => (ended = resolve))
    await deliveries.transactional(async () => {
      // The timer's callback runs in the transaction's async context after the commit, as an outbox relay's would. It
      // waits for the commit itself: a fixed delay ran the statement inside the transaction when a loaded machine took
      // longer to commit (the insert succeeded, once in a CI run).
      late = new Promise((settle) =>
        setTimeout(() => void transactionEnded.then(() => deliveries.addForEvents([event])).then(settle, settle), 0),
      )
    })
    ended()
    const outcome = await late
    expect(outcome).toBeInstanceOf(Error)
    expect((outcome as Error).message).toMatch(/committed/i)
    expect(Number(await storedDeliveries(event.id))).toBe(0)
  })

  it('locks an exchange row by its prepared read: a second transaction waits for the first and reads its write', async () => {
    const connectionId = `prepared-${randomUUID()}`
    const fields = { state: 'request-sent', agentCreatedAt: new Date(), agentUpdatedAt: new Date() } as never
    await connections.transactional(() => connections.lockOrCreate(orgId, connectionId, fields))

    const order: string[] = []
    let lockedFirst!: () => void
    const firstHasLock = new Promise<void>((resolve) => (lockedFirst = resolve))
    const first = connections.transactional(async () => {
      const locked = await connections.lockOrCreate(orgId, connectionId, fields)
      if (!locked) throw new Error('no row')
      expect(locked.isNew).toBe(false)
      order.push(`first read ${locked.row.state}`)
      lockedFirst()
      await new Promise((resolve) => setTimeout(resolve, 300))
      locked.row.state = 'completed'
      await locked.save()
      // The read and the write were the prepared ones, on this transaction's connection.
      const names = await em.execute<{ name: string }[]>('select name from pg_prepared_statements')
      expect(names.map((row) => row.name)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^lock_[0-9a-f]{20}$/), expect.stringMatching(/^save_/)]),
      )
      // Pushed before the commit: the second read's 'completed' is what shows that it waited for that commit.
      order.push('first flushed')
    })
    await firstHasLock
    const second = connections.transactional(async () => {
      const locked = await connections.lockOrCreate(orgId, connectionId, fields)
      order.push(`second read ${locked?.row.state}`)
    })
    await Promise.all([first, second])
    expect(order).toEqual(['first read request-sent', 'first flushed', 'second read completed'])
  })

  /** A question's columns as its mapper gives them. */
  const questionFields = (state: string, agentUpdatedAt: Date) => ({
    connectionId: 'connection-1',
    threadId: null,
    role: 'questioner',
    state,
    questionText: 'Which?',
    questionDetail: null,
    validResponses: [{ text: 'yes' }, { text: 'no' }],
    response: null,
    agentCreatedAt: new Date('2026-12-01T10:00:00.000Z'),
    agentUpdatedAt,
  })

  /** The stored columns of a question (times as dates: raw statements answer them as text). */
  const storedQuestion = async (questionAnswerId: string) => {
    const [row] = await em
      .getConnection()
      .execute<
        { state: string; response: string | null; valid_responses: unknown; updated_at: string | Date }[]
      >('select state, response, valid_responses, updated_at from question_answers where question_answer_id = ?', [questionAnswerId])
    return { ...row, updated_at: new Date(row.updated_at) }
  }

  it('inserts and saves an exchange row outside the entity manager: its changed columns, arrays of JSON kept', async () => {
    const questionAnswerId = `saved-${randomUUID()}`
    const inserted = await questions.transactional(async () => {
      const locked = await questions.lockOrCreate(orgId, questionAnswerId, questionFields('question-sent', new Date()))
      expect(locked.isNew).toBe(true)
      // Inserted by the prepared insert, on this transaction's connection.
      const names = await em.execute<{ name: string }[]>('select name from pg_prepared_statements')
      expect(names.map((prepared) => prepared.name)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^insert_[0-9a-f]{20}$/)]),
      )
      // Held outside the identity map: the commit's flush has nothing of it to compute or write.
      expect(
        em
          .getUnitOfWork()
          .getIdentityMap()
          .values()
          .some((entity) => entity === locked.row),
      ).toBe(false)
      await locked.save()
      return locked.row
    })
    const before = await storedQuestion(questionAnswerId)
    expect(before.valid_responses).toEqual([{ text: 'yes' }, { text: 'no' }])
    expect(before.updated_at.getTime()).toBe(inserted.updatedAt.getTime())

    await new Promise((resolve) => setTimeout(resolve, 20))
    const saved = await questions.transactional(async () => {
      const locked = await questions.lockOrCreate(orgId, questionAnswerId, questionFields('question-sent', new Date()))
      expect(locked.isNew).toBe(false)
      expect(locked.row.validResponses).toEqual([{ text: 'yes' }, { text: 'no' }])
      locked.row.state = 'answer-received'
      locked.row.response = 'yes'
      locked.row.validResponses = [{ text: 'yes' }, { text: 'no' }, { text: 'maybe' }]
      await locked.save()
      return locked.row
    })
    const after = await storedQuestion(questionAnswerId)
    expect(after).toMatchObject({ state: 'answer-received', response: 'yes' })
    expect(after.valid_responses).toEqual([{ text: 'yes' }, { text: 'no' }, { text: 'maybe' }])
    // updatedAt follows a write, as the entity manager's onUpdate would.
    expect(after.updated_at.getTime()).toBe(saved.updatedAt.getTime())
    expect(saved.updatedAt.getTime()).toBeGreaterThan(before.updated_at.getTime())
  })

  it('writes nothing for a saved row without changes; a row the context manages is refreshed and written by flush', async () => {
    const questionAnswerId = `managed-${randomUUID()}`
    await questions.transactional(() =>
      questions.lockOrCreate(orgId, questionAnswerId, questionFields('question-sent', new Date())),
    )
    const stored = await storedQuestion(questionAnswerId)

    // Later than the insert's updatedAt by more than the column's precision: a write would show in updated_at.
    await new Promise((resolve) => setTimeout(resolve, 20))
    await questions.transactional(async () => {
      const locked = await questions.lockOrCreate(orgId, questionAnswerId, questionFields('question-sent', new Date()))
      await locked.save()
    })
    expect((await storedQuestion(questionAnswerId)).updated_at.getTime()).toBe(stored.updated_at.getTime())

    await questions.inOwnContext(async () => {
      // A request that read the row first (then changed by another writer): the locked row is that one instance,
      // refreshed, not a second copy.
      const read = await questions.findQuestion(orgId, questionAnswerId)
      await em
        .getConnection()
        .execute('update question_answers set response = ? where question_answer_id = ?', [
          'changed meanwhile',
          questionAnswerId,
        ])
      await questions.transactional(async () => {
        const locked = await questions.lockOrCreate(
          orgId,
          questionAnswerId,
          questionFields('question-sent', new Date()),
        )
        expect(locked.row).toBe(read)
        expect(read?.response).toBe('changed meanwhile')
        locked.row.state = 'answer-received'
        await locked.save()
      })
    })
    expect(await storedQuestion(questionAnswerId)).toMatchObject({
      state: 'answer-received',
      response: 'changed meanwhile',
    })
  })
})
