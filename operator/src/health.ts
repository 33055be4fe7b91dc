import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Logger } from '@idplane/common'
import type { OperatorMetrics } from './metrics'

/** /healthz (the process answers), /readyz (standby, or leading with synced caches) and /metrics. */
export class HealthServer {
  private server: Server | undefined

  public constructor(
    private readonly metrics: OperatorMetrics,
    private readonly isReady: () => boolean,
    private readonly logger: Logger,
  ) {}

  /** Listens on `port` (0 picks a free one) and resolves with the bound port. */
  public async listen(port: number, host = '0.0.0.0'): Promise<number> {
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]
      if (req.method !== 'GET') {
        res.writeHead(405).end()
      } else if (path === '/healthz') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
      } else if (path === '/readyz') {
        const ready = this.isReady()
        res.writeHead(ready ? 200 : 503, { 'content-type': 'text/plain' }).end(ready ? 'ok' : 'not ready')
      } else if (path === '/metrics') {
        this.metrics.registry
          .metrics()
          .then((text) => res.writeHead(200, { 'content-type': this.metrics.registry.contentType }).end(text))
          .catch((error: unknown) => {
            this.logger.error('Metrics collection failed', { error })
            res.writeHead(500).end()
          })
      } else {
        res.writeHead(404).end()
      }
    })
    this.server = server
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, host, () => resolve())
    })
    return (server.address() as AddressInfo).port
  }

  public async close(): Promise<void> {
    const server = this.server
    if (!server) return
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
