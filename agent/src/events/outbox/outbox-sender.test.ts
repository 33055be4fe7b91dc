import type { Logger } from '@idplane/common'

import type { AgentEventBody } from '../event-mapper'
import { OutboxSender } from './outbox-sender'
import type { OutboxRepository, PendingEvent } from './outbox.repository'

const logger = { warn: jest.fn(), error: jest.fn(), info: jest.fn(), debug: jest.fn() } as unknown as Logger

function event(id: string): PendingEvent {
  return { id, attempts: 0, body: { id } as unknown as AgentEventBody }
}

class FakeOutbox {
  public pending: PendingEvent[] = []
  public dueCalls = 0
  public delivered: string[] = []

  public due(limit: number): Promise<PendingEvent[]> {
    this.dueCalls++
    return Promise.resolve(this.pending.slice(0, limit))
  }

  public markDelivered(ids: readonly string[]): Promise<void> {
    this.delivered.push(...ids)
    this.pending = this.pending.filter((pending) => !ids.includes(pending.id))
    return Promise.resolve()
  }
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(condition()).toBe(true)
}

describe('OutboxSender', () => {
  const realFetch = globalThis.fetch
  let onPost: () => void = () => undefined

  beforeEach(() => {
    onPost = () => undefined
    globalThis.fetch = jest.fn(() => {
      onPost()
      return Promise.resolve(new Response(null, { status: 204 }))
    }) as typeof fetch
  })

  afterEach(() => {
    globalThis.fetch = realFetch
  })

  it('ends a drain after a short batch without reading the outbox again', async () => {
    const outbox = new FakeOutbox()
    outbox.pending = [event('a'), event('b')]
    const sender = new OutboxSender(
      outbox as unknown as OutboxRepository,
      { url: 'http://127.0.0.1:1/e', token: 't', pollIntervalMs: 60_000 },
      logger,
    )
    sender.start()
    await until(() => outbox.delivered.length === 2)
    await sender.stop()
    expect(outbox.dueCalls).toBe(1)
  })

  it('drains again when an event was written during a drain', async () => {
    const outbox = new FakeOutbox()
    outbox.pending = [event('a')]
    const sender = new OutboxSender(
      outbox as unknown as OutboxRepository,
      { url: 'http://127.0.0.1:1/e', token: 't', pollIntervalMs: 60_000 },
      logger,
    )
    onPost = () => {
      onPost = () => undefined
      outbox.pending.push(event('b'))
      sender.nudge()
    }
    sender.start()
    await until(() => outbox.delivered.length === 2)
    await sender.stop()
    expect(outbox.delivered).toEqual(['a', 'b'])
  })

  it('keeps reading while batches are full', async () => {
    const outbox = new FakeOutbox()
    outbox.pending = Array.from({ length: 25 }, (_unused, index) => event(`e${index}`))
    const sender = new OutboxSender(
      outbox as unknown as OutboxRepository,
      { url: 'http://127.0.0.1:1/e', token: 't', pollIntervalMs: 60_000 },
      logger,
    )
    sender.start()
    await until(() => outbox.delivered.length === 25)
    await sender.stop()
    expect(outbox.dueCalls).toBe(2)
  })
})
