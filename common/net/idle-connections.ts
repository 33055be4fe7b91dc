import type { Server } from 'node:http'

/**
 * How long a server of ours keeps an idle keep-alive connection open: longer than the clients that pool connections
 * to it keep theirs. ingress-nginx keeps an idle upstream connection 60 s (`upstream-keepalive-timeout`), as do
 * AWS's load balancers by default; a peer agent's DIDComm pool and the API's pool to its agents keep theirs less.
 */
export const IDLE_CONNECTION_TIMEOUT_MS = 75_000

/**
 * Keeps a server's idle keep-alive connections open for `timeoutMs` (Node closes them after 5 s). A server that
 * closes an idle connection before its client does races the client's next request on it: the request is written
 * as the connection closes, and the client sees a reset (a proxy answers its caller 502 for a POST it will not send
 * again). A client that closes first knows it did. Node's own clients read the `Keep-Alive: timeout` the server then
 * announces; proxies do not, so the server must simply outlast them.
 */
export function keepIdleConnections(server: Server, timeoutMs: number = IDLE_CONNECTION_TIMEOUT_MS): void {
  server.keepAliveTimeout = timeoutMs
}
