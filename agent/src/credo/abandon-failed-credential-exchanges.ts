import { EventEmitter } from '@credo-ts/core'
import {
  DidCommCredentialEventTypes,
  DidCommCredentialExchangeRepository,
  DidCommCredentialProblemReportReason,
  DidCommCredentialState,
  DidCommProblemReportError,
  type DidCommCredentialStateChangedEvent,
  type DidCommMessageHandlerMiddleware,
  parseMessageType,
  V2CredentialProblemReportError,
} from '@credo-ts/didcomm'

import { signingFailureReason } from '../formats/jsonld/offer-dry-run'

const ISSUE_CREDENTIAL_V2 = 'https://didcomm.org/issue-credential/2.0'

const TERMINAL_STATES: readonly string[] = [
  DidCommCredentialState.Done,
  DidCommCredentialState.Abandoned,
  DidCommCredentialState.Declined,
]

/** Longest reason kept on the record and sent in the problem report. */
const MAX_REASON_LENGTH = 1000

function reasonOf(error: unknown): string {
  const text = signingFailureReason(error)
  return text.length > MAX_REASON_LENGTH ? `${text.slice(0, MAX_REASON_LENGTH)}…` : text
}

/**
 * Ends a credential exchange whose message this agent failed to handle (issue 10 item 5: exchanges never hang):
 * the record goes to `abandoned` with the reason in `errorMessage` (so the platform gets the event), and the
 * error is rethrown as a problem report, which Credo's dispatcher sends to the other party on the exchange's
 * thread (it then abandons its side too). Plain Credo logs such an error and leaves both records where they were.
 * Errors that already carry a problem report, and failures on problem reports themselves, pass through.
 */
export function abandonFailedCredentialExchanges(): DidCommMessageHandlerMiddleware {
  return async (context, next) => {
    try {
      await next()
    } catch (error) {
      const type = parseMessageType(context.message.type)
      if (
        type.protocolUri !== ISSUE_CREDENTIAL_V2 ||
        type.messageName === 'problem-report' ||
        error instanceof DidCommProblemReportError
      ) {
        throw error
      }
      const { agentContext } = context
      const repository = agentContext.dependencyManager.resolve(DidCommCredentialExchangeRepository)
      const records = await repository.findByQuery(agentContext, { threadId: context.message.threadId })
      const record = records.find((candidate) => !TERMINAL_STATES.includes(candidate.state))
      if (!record) throw error
      const reason = reasonOf(error)
      const previousState = record.state
      record.state = DidCommCredentialState.Abandoned
      record.errorMessage = `${DidCommCredentialProblemReportReason.IssuanceAbandoned}: ${reason}`
      await repository.update(agentContext, record)
      agentContext.dependencyManager.resolve(EventEmitter).emit<DidCommCredentialStateChangedEvent>(agentContext, {
        type: DidCommCredentialEventTypes.DidCommCredentialStateChanged,
        payload: { credentialExchangeRecord: record.clone(), previousState },
      })
      throw new V2CredentialProblemReportError(reason, {
        problemCode: DidCommCredentialProblemReportReason.IssuanceAbandoned,
      })
    }
  }
}
