import { type AgentContext, CredoError, EventEmitter, JsonEncoder, type Logger } from '@credo-ts/core'
import {
  DidCommEventTypes,
  DidCommModuleConfig,
  type DidCommOutboundPackage,
  type DidCommOutboundTransport,
  isValidJweStructure,
} from '@credo-ts/didcomm'

import { httpPost, HttpTimeoutError } from './http-request'
import type { OutboundQueue } from './outbound-queue'
import { OutboundTargetGuard } from './outbound-target-guard'

/** The message did not reach the other agent (a network error or no answer): worth sending again. */
class DeliveryError extends CredoError {}

/** How long a receiver may take to answer (Credo's own transport waits as long). */
const SEND_TIMEOUT_MS = 15000
/** Answers that mean the receiver did not take the message (HTTP's "bad gateway", "unavailable", "gateway timeout"). */
const NOT_TAKEN_STATUSES: ReadonlySet<number> = new Set([502, 503, 504])

/**
 * DIDComm over HTTP(S) POST, with the behaviour of Credo's DidCommHttpOutboundTransport (the envelope as JSON under
 * the configured DIDComm MIME type; an envelope in the answer is a message for us, return-route) on node:http
 * keep-alive connections instead of fetch: about a tenth of the CPU per message.
 */
export class DidCommNodeHttpOutboundTransport implements DidCommOutboundTransport {
  public readonly supportedSchemes = ['http', 'https']
  private agentContext: AgentContext | undefined
  private active = false
  private sending = 0
  private idle: (() => void) | undefined

  /**
   * @param targets where messages may go (AGENT_ALLOW_PRIVATE_TARGETS); by default no private target
   * @param queue keeps messages the other agent did not take, to send them again (also after a restart)
   */
  public constructor(
    private readonly targets = new OutboundTargetGuard(false),
    private readonly queue?: OutboundQueue,
  ) {}

  public start(agentContext: AgentContext): Promise<void> {
    this.agentContext = agentContext
    this.active = true
    this.queue?.start((message) => this.post(agentContext, message.endpoint, message.payload, false))
    return Promise.resolve()
  }

  /** Waits for messages still being sent. */
  public async stop(): Promise<void> {
    this.active = false
    await this.queue?.stop()
    if (this.sending > 0) await new Promise<void>((resolve) => (this.idle = resolve))
  }

  public async sendMessage(outboundPackage: DidCommOutboundPackage): Promise<void> {
    const agentContext = this.agentContext
    if (!agentContext || !this.active) throw new CredoError('Outbound transport is not active. Not sending message.')
    const { endpoint, payload } = outboundPackage
    if (!endpoint) throw new CredoError('Missing endpoint: nowhere to send the message.')
    const body = JSON.stringify(payload)
    const queue = this.queue
    // Written as the attempt starts: the row is committed long before the other agent has processed the message (a
    // process killed meanwhile loses nothing), and the send does not wait behind the agent's database.
    const writing = queue?.begin(endpoint, body).then(
      (id) => ({ id }),
      (error: unknown) => ({ error }),
    )
    try {
      await this.post(agentContext, endpoint, body, outboundPackage.responseRequested === true)
    } catch (error) {
      const written = await writing
      if (!(error instanceof DeliveryError) || !queue || !written || 'error' in written) {
        if (written && 'id' in written) queue?.taken(written.id)
        throw error
      }
      // The other agent did not take it (down, restarting, unreachable): kept and sent again; for Credo the message
      // is on its way, so the exchange waits for the answer as it would for a slow agent.
      await queue.failed(written.id, endpoint, error.message)
      return
    }
    const written = await writing
    if (written && 'id' in written) queue?.taken(written.id)
    else if (written) agentContext.config.logger.warn('Delivered a DIDComm message that could not be kept meanwhile')
  }

  /**
   * POSTs one envelope and hands an envelope in the answer to the agent (return routing).
   * @throws {CredoError} when the endpoint is refused (a private target), before anything is sent
   * @throws {DeliveryError} when the message did not reach the other agent (network error, no answer in time)
   */
  private async post(agentContext: AgentContext, endpoint: string, body: string, responseRequested: boolean) {
    const logger = agentContext.config.logger
    const mimeType = agentContext.dependencyManager.resolve(DidCommModuleConfig).didCommMimeType
    this.sending++
    try {
      // Before every send: an invitation or a DID document names the endpoint, so anyone could point us inward.
      const { lookup } = await this.targets.check(endpoint, 'endpoint')
      let answer: { status: number; body: string }
      try {
        answer = await httpPost(endpoint, body, { 'content-type': mimeType }, SEND_TIMEOUT_MS, lookup)
      } catch (error) {
        // With return routing the receiver may hold the connection open for a reply that never comes.
        if (error instanceof HttpTimeoutError && responseRequested) return
        const message = error instanceof Error ? error.message : String(error)
        logger.warn(`Error sending message to ${endpoint}: ${message}`)
        throw new DeliveryError(`Error sending message to ${endpoint}: ${message}`, {
          cause: error instanceof Error ? error : undefined,
        })
      }
      // 502, 503 and 504 say the message was not taken: the agent is stopping (our inbound transport answers 503
      // then) or a proxy in front of it found it gone. Sent again, as after a network error.
      if (NOT_TAKEN_STATUSES.has(answer.status)) {
        logger.warn(`Receiver ${endpoint} answered HTTP ${answer.status}: not taken`)
        throw new DeliveryError(`Receiver ${endpoint} answered HTTP ${answer.status}`)
      }
      // Otherwise, as Credo's transport: the receiver took the message whatever it answered (a 500 means it failed
      // to process it, which resending would not fix).
      if (answer.status >= 300) logger.warn(`Receiver ${endpoint} answered HTTP ${answer.status}`)
      else if (answer.body) this.receiveAnswer(agentContext, logger, answer.body)
    } catch (error) {
      if (error instanceof DeliveryError) throw error
      const message = error instanceof Error ? error.message : String(error)
      logger.error(`Error sending message to ${endpoint}: ${message}`)
      throw new CredoError(`Error sending message to ${endpoint}: ${message}`, {
        cause: error instanceof Error ? error : undefined,
      })
    } finally {
      this.sending--
      if (this.sending === 0) this.idle?.()
    }
  }

  private receiveAnswer(agentContext: AgentContext, logger: Logger, answer: string): void {
    let envelope: unknown
    try {
      envelope = JsonEncoder.fromString(answer)
    } catch {
      logger.debug('The answer to a DIDComm message was not JSON')
      return
    }
    if (!isValidJweStructure(envelope)) {
      logger.error('The answer to a DIDComm message is not a DIDComm envelope')
      return
    }
    agentContext.dependencyManager.resolve(EventEmitter).emit(agentContext, {
      type: DidCommEventTypes.DidCommMessageReceived,
      payload: { message: envelope },
    })
  }
}
