import type { AgentContext } from '@credo-ts/core'
import {
  DidCommCredentialExchangeRepository,
  DidCommCredentialState,
  DidCommCredentialsModuleConfig,
  DidCommProofExchangeRepository,
  DidCommProofState,
  DidCommProofsModuleConfig,
  type DidCommCredentialExchangeRecord,
  type DidCommMessage,
  type DidCommProofExchangeRecord,
} from '@credo-ts/didcomm'

import type { Logger } from '@idplane/common'
import type { IdplaneAgent } from './build-agent'

/** What the v1 and v2 protocols of Credo have beside their declared interface: the auto-accept rules. */
interface CredentialAutoRules {
  version: string
  findRequestMessage(agentContext: AgentContext, id: string): Promise<DidCommMessage | null>
  shouldAutoRespondToRequest?(
    agentContext: AgentContext,
    options: { credentialExchangeRecord: DidCommCredentialExchangeRecord; requestMessage: DidCommMessage },
  ): Promise<boolean>
}

interface ProofAutoRules {
  version: string
  findPresentationMessage(agentContext: AgentContext, id: string): Promise<DidCommMessage | null>
  shouldAutoRespondToPresentation?(
    agentContext: AgentContext,
    options: { proofExchangeRecord: DidCommProofExchangeRecord; presentationMessage: DidCommMessage },
  ): Promise<boolean>
}

/**
 * Answers, once at the agent's start, the credential requests and presentations that Credo would have answered on
 * arrival had the agent not stopped in between (docs/reliability.md, defect 7).
 *
 * Why: Credo applies a record's auto-accept rule only in the handler of the incoming message. An agent that dies
 * after storing a request (`request-received`) or a presentation (`presentation-received`) and before answering it
 * leaves the exchange there for good: nothing looks at it again, and the exchange time-out leaves states that wait
 * on this side alone. The same rule decides here (`shouldAutoRespondToRequest` / `ToPresentation`, the record's
 * `autoAccept*` and, for `contentApproved`, the content check), so an exchange that waited for a person still
 * waits. Only records last changed before `startedAt` are looked at: a message received by this process is its
 * handler's.
 * @returns how many exchanges it answered
 */
export async function resumeAutoAccepts(agent: IdplaneAgent, logger: Logger, startedAt: Date): Promise<number> {
  const agentContext = agent.context
  const resolve = agentContext.dependencyManager.resolve.bind(agentContext.dependencyManager)
  const isEarlier = (record: { updatedAt?: Date; createdAt: Date }) =>
    (record.updatedAt ?? record.createdAt) < startedAt
  let answered = 0

  const credentialProtocols = resolve(DidCommCredentialsModuleConfig)
    .credentialProtocols as unknown as CredentialAutoRules[]
  const requests = await resolve(DidCommCredentialExchangeRepository).findByQuery(agentContext, {
    state: DidCommCredentialState.RequestReceived,
  })
  for (const record of requests.filter(isEarlier)) {
    try {
      const protocol = credentialProtocols.find((candidate) => candidate.version === record.protocolVersion)
      const requestMessage = await protocol?.findRequestMessage(agentContext, record.id)
      if (!protocol?.shouldAutoRespondToRequest || !requestMessage) continue
      if (
        !(await protocol.shouldAutoRespondToRequest(agentContext, { credentialExchangeRecord: record, requestMessage }))
      )
        continue
      logger.info('Answering a credential request left by an earlier process', { credentialRecordId: record.id })
      await agent.didcomm.credentials.acceptRequest({ credentialExchangeRecordId: record.id })
      answered++
    } catch (error) {
      logger.warn('Could not answer a credential request left by an earlier process', {
        credentialRecordId: record.id,
        error: (error as Error).message,
      })
    }
  }

  const proofProtocols = resolve(DidCommProofsModuleConfig).proofProtocols as unknown as ProofAutoRules[]
  const presentations = await resolve(DidCommProofExchangeRepository).findByQuery(agentContext, {
    state: DidCommProofState.PresentationReceived,
  })
  for (const record of presentations.filter(isEarlier)) {
    try {
      const protocol = proofProtocols.find((candidate) => candidate.version === record.protocolVersion)
      const presentationMessage = await protocol?.findPresentationMessage(agentContext, record.id)
      if (!protocol?.shouldAutoRespondToPresentation || !presentationMessage) continue
      if (
        !(await protocol.shouldAutoRespondToPresentation(agentContext, {
          proofExchangeRecord: record,
          presentationMessage,
        }))
      )
        continue
      logger.info('Answering a presentation left by an earlier process', { proofRecordId: record.id })
      await agent.didcomm.proofs.acceptPresentation({ proofExchangeRecordId: record.id })
      answered++
    } catch (error) {
      logger.warn('Could not answer a presentation left by an earlier process', {
        proofRecordId: record.id,
        error: (error as Error).message,
      })
    }
  }
  return answered
}
