import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'

import { type AgentContext, CredoError } from '@credo-ts/core'
import {
  type DidCommEncryptedMessage,
  type DidCommInboundMessageContext,
  type DidCommInboundTransport,
  DidCommMessageHandlerRegistry,
  DidCommMessageReceiver,
  DidCommMimeType,
  DidCommModuleConfig,
  DidCommTransportService,
  type DidCommTransportSession,
} from '@credo-ts/didcomm'
import { closeServer } from '@idplane/common/net/close-server'
import { keepIdleConnections } from '@idplane/common/net/idle-connections'

import { TakenEnvelopes } from './taken-envelopes'

const SUPPORTED_MEDIA_TYPES: readonly string[] = [DidCommMimeType.V0, DidCommMimeType.V1]
const MAX_BODY_BYTES = 5 * 1024 * 1024

export interface DidCommNodeHttpInboundTransportOptions {
  port: number
  host?: string
  /** Called for every message taken in (metrics). */
  onMessage?: () => void
  /** Takes every request for a path other than `/` (the OpenID4VC endpoints); without it those are 404. */
  otherRequests?: (req: IncomingMessage, res: ServerResponse) => void
  /** Envelopes already processed: one sent again is answered 200 and dropped. */
  takenEnvelopes?: TakenEnvelopes
  /** Called for every envelope dropped as already taken (metrics). */
  onDuplicate?: () => void
}

/**
 * DIDComm messages POSTed to `/` on the inbound port, on a bare node:http server instead of Credo's Express one: less
 * CPU per message. The message is handed to Credo's receiver directly rather than through an event, and answered 200
 * only once its handler has run (what it changed is stored); a message that fails is answered 500 at once. Credo's
 * transport answers as soon as the message is decrypted (its receiver closes the session of a message that asked for
 * no return routing before dispatching it), so a sender sees a message taken whose processing a dying agent then cut,
 * and never sends it again. Here the answer waits for the handler (a middleware tells), not for the messages the
 * handler answers with: those go out after it, through the outbound queue, which keeps them. A reply can still go back
 * on the request when the sender asked for return routing. Bad requests get clear statuses: 404 for other paths, 405
 * for other methods, 415 for other media types, 413 beyond 5 MB, 400 for bodies that are not JSON.
 *
 * Decision: calling the receiver directly is what Credo's own subscriber does when messages are processed
 * concurrently (`processDidCommMessagesConcurrently`, which build-agent.ts sets).
 */
export class DidCommNodeHttpInboundTransport implements DidCommInboundTransport {
  private server: Server | undefined
  /**
   * Envelopes being processed now, by digest, each with whether its processing succeeded: the same one arriving
   * meanwhile is a resend (its sender saw no answer in time), answered as the first one ends.
   */
  private readonly processing = new Map<string, Promise<boolean>>()
  /** Set as the agent begins to stop: messages are no longer taken (see refuseNewMessages). */
  private refusing = false
  /** Per envelope being received: called by the middleware once the message's handler has run without error. */
  private readonly handled = new WeakMap<object, () => void>()
  /** Messages taken in whose processing (their answers included) has not ended: the stop waits for them. */
  private readonly receiving = new Set<Promise<void>>()

  public constructor(private readonly options: DidCommNodeHttpInboundTransportOptions) {}

  public async start(agentContext: AgentContext): Promise<void> {
    await this.options.takenEnvelopes?.load()
    // Runs around every message's handler: once the handler has run, the message's sender may be answered.
    agentContext.dependencyManager
      .resolve(DidCommMessageHandlerRegistry)
      .registerMessageHandlerMiddleware(async (context: DidCommInboundMessageContext, next: () => Promise<void>) => {
        await next()
        if (context.encryptedMessage) this.handled.get(context.encryptedMessage)?.()
      })
    const server = createServer((req, res) => {
      this.handle(agentContext, req, res).catch((error: unknown) => {
        agentContext.config.logger.error('Could not take an inbound DIDComm message', { error })
        if (!res.headersSent) answer(res, 500, 'Error processing message')
      })
    })
    // Senders (peer agents, the ingress in front of this one) keep connections open between messages.
    keepIdleConnections(server)
    this.server = server
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(this.options.port, this.options.host, () => {
        server.off('error', reject)
        resolve()
      })
    })
  }

  /**
   * From now on every message is answered 503 with Retry-After and not processed: its sender keeps it and sends it
   * again, to the next process. Called as the agent begins to stop, so that nothing new is taken while the outbound
   * transport, which the answers to a message go through, is being stopped.
   */
  public refuseNewMessages(): void {
    this.refusing = true
  }

  /**
   * Refuses new messages and waits for those being processed, until the messages they answer with are on their way
   * (called again by Credo's shutdown, which then stops the outbound transport: a no-op then).
   */
  public async stop(): Promise<void> {
    this.refuseNewMessages()
    const server = this.server
    if (!server) return
    this.server = undefined
    await closeServer(server)
    await Promise.allSettled([...this.receiving])
  }

  private async handle(agentContext: AgentContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]
    if (path !== '/')
      return this.options.otherRequests ? this.options.otherRequests(req, res) : answer(res, 404, 'Not found')
    if (req.method !== 'POST') return answer(res, 405, 'Only POST is supported', { allow: 'POST' })
    const mediaType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
    if (!SUPPORTED_MEDIA_TYPES.includes(mediaType)) {
      return answer(
        res,
        415,
        `Unsupported content-type. Supported content-types are: ${SUPPORTED_MEDIA_TYPES.join(', ')}`,
      )
    }
    const body = await readBody(req)
    if (body === undefined) return answer(res, 413, 'Message larger than 5 MB')
    let envelope: unknown
    try {
      envelope = JSON.parse(body)
    } catch {
      return answer(res, 400, 'Message is not JSON')
    }

    const taken = this.options.takenEnvelopes
    const digest = taken ? TakenEnvelopes.digestOf(body) : undefined
    if (digest !== undefined) {
      // Sent again by a sender that did not see it taken: taken it is, once processed. One that arrives while the
      // first is still processed waits for it: answered 200 now, it would be lost if this process died before the
      // first one's end; when the first failed, this one is processed as any message is.
      const earlier = this.processing.get(digest)
      if ((earlier !== undefined && (await earlier)) || taken?.has(digest)) {
        this.options.onDuplicate?.()
        return answer(res, 200)
      }
    }
    if (this.refusing) return refuseWhileStopping(req, res)
    this.options.onMessage?.()
    const transports = agentContext.dependencyManager.resolve(DidCommTransportService)
    const session = new HttpTransportSession(req, res, mediaType)
    let processed = false
    let settle: (processed: boolean) => void = () => undefined
    const processing = new Promise<boolean>((resolve) => (settle = resolve))
    if (digest !== undefined) this.processing.set(digest, processing)
    const handled = new Promise<void>((resolve) => this.handled.set(envelope as object, resolve))
    const receiving = agentContext.dependencyManager
      .resolve(DidCommMessageReceiver)
      .receiveMessage(envelope, { session })
    this.receiving.add(receiving)
    void receiving
      .finally(() => {
        this.receiving.delete(receiving)
        // The session ends with the receiver (a reply on it may come until then).
        transports.removeSession(session)
      })
      .catch((error: unknown) => {
        // Answered already (its handler had run): a failure after it, sending what the handler answered with.
        if (processed) agentContext.config.logger.warn('A DIDComm message failed after it was handled', { error })
      })
    try {
      try {
        // Answered once its handler has run, or once the receiver is done (a message no handler took, a problem
        // report sent in its stead). A message that asked for return routing waits for the receiver: its answer may
        // go back on this request (Credo set the session's keys before dispatching it).
        await Promise.race([handled.then(() => (session.keys ? receiving : undefined)), receiving])
      } catch (error) {
        // Failed while the agent stops, perhaps because of it: the next process takes it when it comes again.
        if (this.refusing && !res.headersSent) {
          agentContext.config.logger.warn('A DIDComm message failed while the agent stopped; refused for a resend', {
            error,
          })
          return refuseWhileStopping(req, res)
        }
        throw error
      }
      processed = true
      if (!res.headersSent) answer(res, 200)
      // Written after the answer, off the sender's path: a sender that saw the answer does not send it again, and one
      // that did not (killed, or the answer lost) sends it again later than this write takes.
      // The answer is out: a failed write is only logged (the next process may then process a resend again).
      if (digest !== undefined)
        await taken
          ?.add(digest)
          .catch((error: unknown) => agentContext.config.logger.warn('Could not record a taken envelope', { error }))
    } finally {
      settle(processed)
      this.handled.delete(envelope as object)
      if (digest !== undefined && this.processing.get(digest) === processing) this.processing.delete(digest)
    }
  }
}

/** Not taken: the sender keeps the message and sends it again (our outbound transport does on 502, 503 and 504). */
function refuseWhileStopping(req: IncomingMessage, res: ServerResponse): void {
  answer(res, 503, 'The agent is stopping; send the message again', { 'retry-after': '5', connection: 'close' })
  req.resume()
}

/** A reply on the sender's open request (DIDComm return routing). */
class HttpTransportSession implements DidCommTransportSession {
  public readonly id = randomUUID()
  public readonly type = 'http'
  /** Set by Credo's receiver when the message asked for return routing. */
  public keys?: DidCommTransportSession['keys']

  public constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly requestMediaType: string,
  ) {}

  /**
   * Credo closes the session of a message that asked for no return routing before it dispatches the message; the
   * transport answers once the message is handled instead (see the class above), so nothing is sent here.
   */
  public close(): Promise<void> {
    return Promise.resolve()
  }

  public send(agentContext: AgentContext, encryptedMessage: DidCommEncryptedMessage): Promise<void> {
    if (this.res.headersSent || this.req.destroyed) throw new CredoError('http transport session has been closed.')
    // Answer in the sender's media type, or in ours when it used another.
    const mediaType = SUPPORTED_MEDIA_TYPES.includes(this.requestMediaType)
      ? this.requestMediaType
      : agentContext.dependencyManager.resolve(DidCommModuleConfig).didCommMimeType
    const body = JSON.stringify(encryptedMessage)
    this.res.writeHead(200, { 'content-type': mediaType, 'content-length': Buffer.byteLength(body) })
    this.res.end(body)
    return Promise.resolve()
  }
}

function answer(res: ServerResponse, status: number, text = '', headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    ...headers,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  })
  res.end(text)
}

/** The request body as text, or undefined when it exceeds MAX_BODY_BYTES (the rest is drained, not buffered). */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) tooLarge = true
      else chunks.push(chunk)
    })
    req.once('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks).toString('utf8')))
    req.once('error', reject)
  })
}
