import { createServer } from 'node:net'

/**
 * Below the kernel's ephemeral range (net.ipv4.ip_local_port_range, 32768-60999 on Linux by default) and apart from
 * the agents' counters that tests set (AGENT_PORT_COUNTER_START, 18201 and up).
 */
const RESTARTABLE_PORTS = { from: 11_000, to: 17_500 }

/**
 * A free port for a process that a test kills and starts again on the same port. freePort's ports come from the
 * ephemeral range, which every outgoing connection of the machine draws from too: in the seconds between a kill and
 * the restart's listen, a connection to PostgreSQL or an agent may take the port, and the restart dies with
 * EADDRINUSE. Ports below that range are only ever taken by a listen that asks for one.
 */
export async function restartablePort(): Promise<number> {
  for (;;) {
    const port = RESTARTABLE_PORTS.from + Math.floor(Math.random() * (RESTARTABLE_PORTS.to - RESTARTABLE_PORTS.from))
    const isFree = await new Promise<boolean>((resolve) => {
      const server = createServer()
      server.once('error', () => resolve(false))
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
    })
    if (isFree) return port
  }
}
