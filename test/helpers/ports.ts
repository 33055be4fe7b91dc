import { createServer } from 'node:net'

/**
 * Below the kernel's ephemeral range (net.ipv4.ip_local_port_range, 32768-60999 on Linux by default) and apart from
 * the agents' counters that tests set (AGENT_PORT_COUNTER_START: the fixed ones at 18201-19900, agentPortCounters'
 * at 20000-30999).
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

/**
 * An AGENT_PORT_COUNTER_START for a test API whose agents the platform starts: a random block of 20 admin ports in
 * 20000-24999 and its inbound ports 6000 higher, all below the ephemeral range. In that range an outgoing connection
 * (a PostgreSQL pool's, an agent's) may hold the port an agent is about to listen on, and the agent then fails its
 * start for as long as that connection lives; the platform keeps an agent's ports, so it fails again on restart.
 */
export function agentPortCounters(): { admin: number; inbound: number; setting: string } {
  const admin = 20_000 + Math.floor(Math.random() * 250) * 20
  const inbound = admin + 6_000
  return { admin, inbound, setting: `${admin},${inbound}` }
}
