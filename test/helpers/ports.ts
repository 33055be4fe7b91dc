import { createServer, type Server } from 'node:net'

/**
 * Below the kernel's ephemeral range (net.ipv4.ip_local_port_range, 32768-60999 on Linux by default) and apart from
 * the agents' ports that tests claim (claimAgentPorts: 20000-30999).
 */
const FREE_PORTS = { from: 11_000, to: 17_500 }

/**
 * A port that was free a moment ago, for a process to listen on later (a spawned agent or API, one a test kills and
 * starts again on the same port). Not from the ephemeral range, which every outgoing connection of the machine draws
 * from too: between the check and the listen (a process start, or a kill and its restart) a connection to
 * PostgreSQL or an agent could take such a port, and the listen fails with EADDRINUSE (CI failed that way). Ports
 * below the range are only ever taken by a listen that asks for one; picked at random, two suites beside each other
 * rarely try the same one, and a port held by anything is skipped.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = FREE_PORTS.from + Math.floor(Math.random() * (FREE_PORTS.to - FREE_PORTS.from))
    // A port handed out earlier may not be listened on yet (a process still starting, or one killed for a restart),
    // so the check below would find it free: a suite asking for a dozen would get one twice now and then.
    if (handedOut.has(port)) continue
    const isFree = await new Promise<boolean>((resolve) => {
      const server = createServer()
      server.once('error', () => resolve(false))
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
    })
    if (!isFree) continue
    handedOut.add(port)
    return port
  }
}

/** Every port freePort gave in this process; 6,500 ports are far more than one test file asks for. */
const handedOut = new Set<number>()

/** Agent port blocks for test APIs: 250 blocks of 20 admin ports from 20000, inbound ports 6000 higher. */
const AGENT_PORT_BLOCKS = { firstAdmin: 20_000, count: 250, size: 20, inboundOffset: 6_000 }

/** The ports a test API's agents take (AGENT_PORT_COUNTER_START): its nth agent gets admin + n and inbound + n. */
export interface AgentPorts {
  admin: number
  inbound: number
  /** The AGENT_PORT_COUNTER_START value. */
  setting: string
}

/**
 * Claims a block of agent ports for a test API for as long as this process lives: 20 admin ports in 20000-24999 and
 * their inbound ports in 26000-30999, below the ephemeral range (where an outgoing connection, a PostgreSQL pool's or
 * an agent's, could hold the port an agent is about to listen on; the platform keeps an agent's ports, so it would
 * fail again on restart). Suites run side by side in several jest workers and projects, so a random or fixed start
 * alone collides now and then (CI once failed an agent's start that way). The claim is a listen on the block's
 * counter start, a port the allocator never hands out (the first agent takes start + 1): the kernel makes it
 * exclusive across processes and frees it when the claiming worker dies, so no claim outlives its holder.
 */
export async function claimAgentPorts(): Promise<AgentPorts> {
  const { firstAdmin, count, size, inboundOffset } = AGENT_PORT_BLOCKS
  for (let attempt = 0; attempt < count * 2; attempt++) {
    const admin = firstAdmin + Math.floor(Math.random() * count) * size
    const claim = createServer()
    const isClaimed = await new Promise<boolean>((resolve) => {
      claim.once('error', () => resolve(false))
      claim.listen(admin, '127.0.0.1', () => resolve(true))
    })
    if (!isClaimed) continue
    // Held until the worker exits; it must not keep the worker alive on its own.
    claim.unref()
    const inbound = admin + inboundOffset
    return { admin, inbound, setting: `${admin},${inbound}` }
  }
  throw new Error('No block of agent ports left to claim: every block is held by a live test process')
}

/**
 * Closes a server a test may not have got as far as starting: an `afterAll` after a failed `beforeAll` must end, not
 * wait for a callback that `server?.close(resolve)` never calls (a hook timeout hid the real failure in CI).
 */
export async function closeServer(server: Server | undefined): Promise<void> {
  if (!server?.listening) return
  await new Promise<void>((resolve) => server.close(() => resolve()))
}
