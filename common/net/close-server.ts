import type { Server } from 'node:http'

/**
 * Stops an HTTP server taking connections and resolves once the requests it is answering are answered. Keep-alive
 * connections are closed as they become idle: Node's `close()` closes only those idle at the call, so one busy then
 * would hold the stop for its whole idle time (API replicas and agents keep connections to each other).
 */
export async function closeServer(server: Server, idleCheckMs = 100): Promise<void> {
  const closeIdle = setInterval(() => server.closeIdleConnections(), idleCheckMs)
  try {
    await new Promise<void>((resolve) => server.close(() => resolve()))
  } finally {
    clearInterval(closeIdle)
  }
}
