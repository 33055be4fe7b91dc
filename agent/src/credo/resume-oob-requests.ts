import { type Agent, type AgentContext, EventEmitter } from '@credo-ts/core'
import {
  DidCommConnectionEventTypes,
  DidCommCredentialExchangeRepository,
  DidCommDidExchangeState,
  DidCommEventTypes,
  DidCommOutOfBandRepository,
  DidCommOutOfBandRole,
  DidCommProofExchangeRepository,
  type DidCommConnectionStateChangedEvent,
  type DidCommMessageReceivedEvent,
  type DidCommPlaintextMessage,
} from '@credo-ts/didcomm'

import type { Logger } from '@idplane/common'
import { contextProviderOf } from './exchange-timeouts'

/**
 * Hands the messages attached to a received invitation (an e-mailed offer: handshake plus `requests~attach`) to the
 * agent when the invitation's connection completes in a later process than the one that received it.
 *
 * Why: Credo waits for that connection in memory (`returnWhenIsConnected` in the out-of-band API) and only then
 * processes the attached offer or proof request. An agent killed between receiving the invitation and the
 * connection completing loses that wait: the connection completes after the restart, but the offer is never
 * processed, so the holder has no record and the issuer's stays `offer-sent` (found by the short chaos run).
 * Invitations received by this process are left to Credo's own wait, so nothing is handled twice; a message whose
 * thread already has an exchange record is skipped.
 */
export function resumeOutOfBandRequests(agent: Agent, logger: Logger, startedAt = new Date()): void {
  agent.events.on<DidCommConnectionStateChangedEvent>(
    DidCommConnectionEventTypes.DidCommConnectionStateChanged,
    async (event) => {
      const connection = event.payload.connectionRecord
      if (connection.state !== DidCommDidExchangeState.Completed || !connection.outOfBandId) return
      const provider = contextProviderOf(agent)
      let agentContext: AgentContext | undefined
      try {
        agentContext = await provider.getAgentContextForContextCorrelationId(event.metadata.contextCorrelationId)
        const oob = await agentContext.dependencyManager
          .resolve(DidCommOutOfBandRepository)
          .findById(agentContext, connection.outOfBandId)
        if (!oob || oob.role !== DidCommOutOfBandRole.Receiver || oob.createdAt >= startedAt) return
        const requests = oob.outOfBandInvitation.getRequests() ?? []
        for (const request of requests) {
          const message = request as DidCommPlaintextMessage
          const threadId = message['~thread']?.thid ?? message['@id']
          const credentials = await agentContext.dependencyManager
            .resolve(DidCommCredentialExchangeRepository)
            .findByQuery(agentContext, { threadId })
          const proofs = await agentContext.dependencyManager
            .resolve(DidCommProofExchangeRepository)
            .findByQuery(agentContext, { threadId })
          if (credentials.length > 0 || proofs.length > 0) continue
          // What Credo's out-of-band API does once the connection is ready (emitWithConnection).
          const plaintext: DidCommPlaintextMessage = {
            ...message,
            '~thread': { ...(message['~thread'] ?? {}), pthid: oob.outOfBandInvitation.id },
          }
          logger.info('Processing an invitation request left by an earlier process', {
            outOfBandId: oob.id,
            threadId,
            type: message['@type'],
          })
          agentContext.dependencyManager.resolve(EventEmitter).emit<DidCommMessageReceivedEvent>(agentContext, {
            type: DidCommEventTypes.DidCommMessageReceived,
            payload: { message: plaintext, connection, contextCorrelationId: agentContext.contextCorrelationId },
          })
          break
        }
      } catch (error) {
        logger.warn('Could not resume an invitation request', {
          connectionId: connection.id,
          error: (error as Error).message,
        })
      } finally {
        if (agentContext) await provider.endSessionForAgentContext(agentContext).catch(() => undefined)
      }
    },
  )
}
