import { ConflictError } from '@idplane/common'

import { abandonExchange, type ExchangeKind } from '../credo/abandon-exchange'
import type { AgentScope } from './agent-scope'
import { asStepFailure, isFormatFailure, reasonOf } from './credo-errors'

/**
 * Runs a holder's step on an exchange (accepting an offer, answering a proof request). When a format service fails
 * (issue 22 item 10: a credential the presentation cannot be made from, a predicate the wallet cannot meet), the
 * exchange cannot go on as it stands: the other agent is told with a problem report, the record ends `abandoned`
 * with the reason (its event follows), and the caller gets a 409 with the reason, never a 500. Other failures (the
 * record's state, a missing record, storage, delivery) keep the exchange and map as protocolStep maps them.
 * @throws {ConflictError} when a format service failed; the exchange is then abandoned
 */
export async function endExchangeOnFormatFailure<T>(
  scope: AgentScope,
  kind: ExchangeKind,
  recordId: string,
  action: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (!isFormatFailure(error)) throw asStepFailure(error, 'state', action)
    const reason = `${action}: ${reasonOf(error)}`
    const reported = await sendProblemReport(scope, kind, recordId, reason).then(
      () => true,
      () => false,
    )
    await abandonExchange(scope.agent.context, kind, recordId, reason)
    throw new ConflictError(
      `${reason} (the exchange is abandoned${reported ? ' and the other agent was told with a problem report' : '; the problem report could not be delivered'})`,
      { cause: error },
    )
  }
}

async function sendProblemReport(scope: AgentScope, kind: ExchangeKind, recordId: string, description: string) {
  const didcomm = scope.agent.didcomm
  if (kind === 'credential') {
    await didcomm.credentials.sendProblemReport({ credentialExchangeRecordId: recordId, description })
  } else {
    await didcomm.proofs.sendProblemReport({ proofExchangeRecordId: recordId, description })
  }
}
