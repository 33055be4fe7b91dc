import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { spawnApi, type ApiProcess } from '../helpers/api-process'
import { freePort } from '../helpers/ports'

jest.setTimeout(90_000)

const MAIN = path.resolve(__dirname, '../../dist/api/src/main.js')
/** Longer than Node's own 5 s: a connection idle this long was closed by the API before this change. */
const IDLE_MS = 6_500

/** A kept connection to the API, read one answer at a time; `ended` once the API closed it. */
class KeptConnection {
  private received = ''
  private ended = false
  private waiting: (() => void) | undefined

  public constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received += chunk.toString('latin1')
      this.waiting?.()
    })
    socket.on('close', () => {
      this.ended = true
      this.waiting?.()
    })
  }

  /** Sends `request`, then waits for one whole answer (head, and body by Content-Length) or the connection's end. */
  public async exchange(request: string): Promise<{ head: string; ended: boolean }> {
    this.received = ''
    if (!this.ended) this.socket.write(request)
    for (;;) {
      const [head, body = ''] = this.received.split('\r\n\r\n')
      const length = /content-length: (\d+)/i.exec(head)
      if ((length && body.length >= Number(length[1])) || this.ended) return { head, ended: this.ended }
      await new Promise<void>((resolve) => (this.waiting = resolve))
    }
  }
}

/**
 * An ingress keeps its idle connections to the API for 60 s (ingress-nginx, AWS load balancers) and sends the next
 * request on one whenever it likes; the API must not be the side that closes first (docs/configuration.md,
 * API_KEEP_ALIVE_TIMEOUT_SECONDS). The built API, as a process, answers on a connection left idle past Node's 5 s.
 */
describe('the API keeps idle connections open longer than the ingress in front of it', () => {
  let dataDir: string
  let api: ApiProcess | undefined

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run make build first`)
    dataDir = mkdtempSync(path.join(tmpdir(), 'idplane-idle-connections-'))
    api = await spawnApi(await freePort(), { DATA_DIR: dataDir, LOG_LEVEL: 'error' })
  })

  afterAll(async () => {
    await api?.kill('SIGTERM')
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('answers a request sent on a connection idle for longer than 5 s, and says how long it keeps one', async () => {
    if (!api) throw new Error('The API did not start')
    const { port } = new URL(api.url)
    const socket = connect(Number(port), '127.0.0.1')
    try {
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
      const request = `GET /health/live HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`
      const connection = new KeptConnection(socket)
      const first = await connection.exchange(request)
      expect(first.head).toMatch(/^HTTP\/1\.1 200/)
      expect(first.head).toMatch(/\r\nKeep-Alive: timeout=75\b/i)

      await new Promise((resolve) => setTimeout(resolve, IDLE_MS))
      const second = await connection.exchange(request)
      expect(second).toEqual({ head: expect.stringMatching(/^HTTP\/1\.1 200/) as string, ended: false })
    } finally {
      socket.destroy()
    }
  })
})
