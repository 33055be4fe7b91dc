import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

import type { Logger } from '@idplane/common'

import { OutboxSender } from './outbox-sender'
import type { OutboxRepository, PendingEvent } from './outbox.repository'

const logger = { warn: jest.fn(), error: jest.fn(), info: jest.fn(), debug: jest.fn() } as unknown as Logger

function event(id: string, record?: string): PendingEvent {
  return { id, attempts: 0, body: JSON.stringify(record ? { id, kind: 'connection', record: { id: record } } : { id }) }
}

/** The outbox table in memory, with the repository's contract. */
class FakeOutbox {
  public rows: PendingEvent[] = []
  public dueCalls: (readonly string[])[] = []
  public deleted: string[] = []
  public failed: string[] = []

  public due(limit: number, except: readonly string[] = []): Promise<PendingEvent[]> {
    this.dueCalls.push([...except])
    return Promise.resolve(this.rows.filter((row) => !except.includes(row.id)).slice(0, limit))
  }

  public delivered(ids: readonly string[]): Promise<void> {
    this.deleted.push(...ids)
    this.rows = this.rows.filter((row) => !ids.includes(row.id))
    return Promise.resolve()
  }

  public markFailed(id: string): Promise<void> {
    this.failed.push(id)
    return Promise.resolve()
  }
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(condition()).toBe(true)
}

describe('OutboxSender', () => {
  /** A real event sink on 127.0.0.1: records each event id (and each request's ids) and answers what `answer` says. */
  let sink: Server
  let url: string
  let posted: string[] = []
  let requests: string[][] = []
  let answer: (ids: string[]) => number = () => 204
  /** How long the sink takes to answer, and the most requests it had open at once. */
  let answerAfterMs = 0
  let open = 0
  let mostOpen = 0

  beforeAll(async () => {
    sink = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
      req.on('end', () => {
        expect(req.headers.authorization).toBe('Bearer t')
        const parsed = JSON.parse(body) as { id: string } | { events: { id: string }[] }
        const ids = 'events' in parsed ? parsed.events.map((event) => event.id) : [parsed.id]
        posted.push(...ids)
        requests.push(ids)
        open++
        mostOpen = Math.max(mostOpen, open)
        setTimeout(() => {
          open--
          res.statusCode = answer(ids)
          res.end()
        }, answerAfterMs)
      })
    })
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/events`
  })

  afterAll(async () => {
    sink.closeAllConnections()
    await new Promise((resolve) => sink.close(resolve))
  })

  beforeEach(() => {
    posted = []
    requests = []
    answer = () => 204
    answerAfterMs = 0
    mostOpen = 0
  })

  function aSender(outbox: FakeOutbox) {
    return new OutboxSender(outbox as unknown as OutboxRepository, { url, token: 't', pollIntervalMs: 60_000 }, logger)
  }

  it('sends what an earlier run left in the table at start, then deletes it', async () => {
    const outbox = new FakeOutbox()
    outbox.rows = [event('a'), event('b')]
    const sender = aSender(outbox)
    sender.start()
    await until(() => outbox.deleted.length === 2)
    await sender.stop()
    expect(posted).toEqual(['a', 'b'])
    expect(outbox.dueCalls).toHaveLength(1)
  })

  it('sends committed events from memory without reading the table', async () => {
    const outbox = new FakeOutbox()
    const sender = aSender(outbox)
    sender.start()
    await until(() => outbox.dueCalls.length === 1)
    sender.reserve('c')
    outbox.rows.push(event('c'))
    sender.enqueue(event('c'))
    await until(() => outbox.deleted.includes('c'))
    await sender.stop()
    expect(outbox.dueCalls).toHaveLength(1)
    expect(posted).toEqual(['c'])
  })

  it('leaves ids it holds out of table reads, so no event is in flight twice', async () => {
    const outbox = new FakeOutbox()
    const sender = aSender(outbox)
    sender.reserve('d') // its statement is running while the sender starts and reads the table
    outbox.rows.push(event('d'))
    sender.start()
    await until(() => outbox.dueCalls.length === 1)
    expect(outbox.dueCalls[0]).toEqual(['d'])
    sender.enqueue(event('d'))
    await until(() => outbox.deleted.includes('d'))
    await sender.stop()
    expect(posted).toEqual(['d'])
  })

  it('sends what is due together in one request', async () => {
    const outbox = new FakeOutbox()
    outbox.rows = [event('a'), event('b'), event('c')]
    const sender = aSender(outbox)
    sender.start()
    await until(() => outbox.deleted.length === 3)
    await sender.stop()
    expect(requests).toEqual([['a', 'b', 'c']])
  })

  it('hands every event of a batch back to the table when the sink fails', async () => {
    const outbox = new FakeOutbox()
    answer = () => 503
    outbox.rows = [event('a'), event('b')]
    const sender = aSender(outbox)
    sender.start()
    await until(() => outbox.failed.length === 2)
    await sender.stop()
    expect(outbox.deleted).toEqual([])
  })

  it('sends a refused batch one event at a time, so only the refused event waits', async () => {
    const outbox = new FakeOutbox()
    answer = (ids) => (ids.includes('bad') ? 400 : 204)
    outbox.rows = [event('bad'), event('good')]
    const sender = aSender(outbox)
    sender.start()
    await until(() => outbox.deleted.includes('good') && outbox.failed.includes('bad'))
    await sender.stop()
    expect(outbox.deleted).not.toContain('bad')
    expect(requests[0]).toEqual(['bad', 'good'])
    expect(requests.slice(1).sort()).toEqual([['bad'], ['good']])
  })

  it('hands an event back when the sink cannot be reached', async () => {
    const outbox = new FakeOutbox()
    outbox.rows = [event('lost')]
    const sender = new OutboxSender(
      outbox as unknown as OutboxRepository,
      { url: 'http://127.0.0.1:1/unreachable', token: 't', pollIntervalMs: 60_000 },
      logger,
    )
    sender.start()
    await until(() => outbox.failed.includes('lost'))
    await sender.stop()
    expect(outbox.deleted).toEqual([])
  })

  it('keeps reading while table batches are full', async () => {
    const outbox = new FakeOutbox()
    outbox.rows = Array.from({ length: 25 }, (_unused, index) => event(`e${index}`))
    const sender = aSender(outbox)
    sender.start()
    await until(() => outbox.deleted.length === 25)
    await sender.stop()
    expect(outbox.dueCalls).toHaveLength(2)
  })

  it('drains again when an event is committed during a drain', async () => {
    const outbox = new FakeOutbox()
    outbox.rows = [event('a')]
    const sender = aSender(outbox)
    answer = () => {
      answer = () => 204
      sender.reserve('b')
      outbox.rows.push(event('b'))
      sender.enqueue(event('b'))
      return 204
    }
    sender.start()
    await until(() => outbox.deleted.length === 2)
    await sender.stop()
    expect(posted).toEqual(['a', 'b'])
  })

  it('keeps up to 4 requests in flight, never two with the same record, each record in commit order', async () => {
    const outbox = new FakeOutbox()
    // 100 records with one event each, then a second event of the first 10: a backlog as 100 exchanges leave it.
    const committed = [
      ...Array.from({ length: 100 }, (_, n) => event(`first-${n}`, `record-${n}`)),
      ...Array.from({ length: 10 }, (_, n) => event(`second-${n}`, `record-${n}`)),
    ]
    outbox.rows = committed
    answerAfterMs = 30
    const sender = aSender(outbox)
    sender.start()
    await until(() => outbox.deleted.length === committed.length)
    await sender.stop()
    expect(mostOpen).toBeGreaterThan(1)
    expect(mostOpen).toBeLessThanOrEqual(4)
    expect([...posted].sort()).toEqual(committed.map((e) => e.id).sort())
    for (let n = 0; n < 10; n++) expect(posted.indexOf(`first-${n}`)).toBeLessThan(posted.indexOf(`second-${n}`))
    // A record's second event went out in a later request than its first.
    const requestOf = (id: string) => requests.findIndex((ids) => ids.includes(id))
    for (let n = 0; n < 10; n++) expect(requestOf(`second-${n}`)).toBeGreaterThan(requestOf(`first-${n}`))
    expect(requests.every((ids) => ids.length <= 20)).toBe(true)
  })

  it("keeps a credential's events behind its connection's", async () => {
    const outbox = new FakeOutbox()
    const withBody = (id: string, body: object): PendingEvent => ({
      id,
      attempts: 0,
      body: JSON.stringify({ id, ...body }),
    })
    const connections = Array.from({ length: 30 }, (_, n) =>
      withBody(`connection-${n}`, { kind: 'connection', record: { id: `c${n}` } }),
    )
    const offers = Array.from({ length: 30 }, (_, n) =>
      withBody(`offer-${n}`, { kind: 'credential', record: { id: `x${n}`, connectionId: `c${n}` } }),
    )
    // Committed while the sender was not running: all 60 are in its queue when it starts.
    const sender = aSender(outbox)
    for (const committed of [...connections, ...offers]) {
      outbox.rows.push(committed)
      sender.enqueue(committed)
    }
    answerAfterMs = 30
    sender.start()
    await until(() => outbox.deleted.length === 60)
    await sender.stop()
    expect(mostOpen).toBeGreaterThan(1)
    const requestOf = (id: string) => requests.findIndex((ids) => ids.includes(id))
    for (let n = 0; n < 30; n++) {
      // In the same request after it, or in a request sent after the connection's was answered.
      expect(posted.indexOf(`offer-${n}`)).toBeGreaterThan(posted.indexOf(`connection-${n}`))
      expect(requestOf(`offer-${n}`)).toBeGreaterThanOrEqual(requestOf(`connection-${n}`))
    }
  })
})
