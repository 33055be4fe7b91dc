import type { Query } from '@credo-ts/core'
import {
  type DidCommConnectionRecord,
  DidCommDidExchangeState,
  DidCommMessageHandlerRegistry,
  type DidCommOutOfBandInvitation,
  MessageSendingError,
  parseInvitationJson,
} from '@credo-ts/didcomm'
import type {
  ConnectionQuery,
  ConnectionRecordJson,
  CreateInvitationRequest,
  CreatedInvitation,
  OutOfBandRecordJson,
  ReceiveInvitationOptions,
  ReceiveInvitationRequest,
  ReceiveInvitationUrlRequest,
  ReceivedInvitation,
} from '@idplane/common/agent-contract/admin-api'
import { IdplaneError, InvalidInputError, InvalidStateError, UpstreamError } from '@idplane/common'

import { AgentRecords, toRecordJson } from './agent-records'
import type { AgentRuntime } from './agent-runtime'
import type { AgentScope } from './agent-scope'
import { protocolStep, reasonOf } from './credo-errors'
import { InvitationDids } from './invitation-dids'
import { toInvitationOptions } from './oob-invitation-options'
import { checkInvitationServices, fetchInvitation } from '../transport/invitation-fetch'
import { OutboundTargetGuard } from '../transport/outbound-target-guard'

/** Connection records: alias and theirLabel are no tags of Credo's record (a tag query on them matches nothing). */
export const CONNECTION_RECORDS = new AgentRecords<
  DidCommConnectionRecord,
  ConnectionQuery,
  Query<DidCommConnectionRecord>,
  ConnectionRecordJson
>({
  name: 'Connection',
  api: (agent) => agent.didcomm.connections,
  toQuery: (filter) => ({ outOfBandId: filter.outOfBandId, did: filter.myDid, theirDid: filter.theirDid }),
  matches: (record, filter) =>
    (filter.alias === undefined || record.alias === filter.alias) &&
    (filter.theirLabel === undefined || record.theirLabel === filter.theirLabel),
})

/** Out-of-band invitations made and received, and answering connection requests. */
export class ConnectionsService {
  private readonly invitationDids = new InvitationDids()

  public constructor(private readonly runtime: AgentRuntime) {}

  /**
   * Field formats: docs/agent.md; the body's JSON becomes Credo's options in oob-invitation-options.ts.
   * @throws {InvalidInputError} options that cannot be combined or Credo refuses
   */
  public async createInvitation(scope: AgentScope, body: CreateInvitationRequest): Promise<CreatedInvitation> {
    const agent = scope.agent
    const { config, service } = toInvitationOptions(body, {
      label: scope.label,
      imageUrl: scope.imageUrl,
      messageClasses: agent.dependencyManager.resolve(DidCommMessageHandlerRegistry),
    })
    const invitationDid = await this.invitationDids.forInvitation(agent, service)
    const record = await protocolStep('input', 'The invitation cannot be created', () =>
      agent.didcomm.oob.createInvitation({ ...config, invitationDid }),
    )
    return {
      invitationUrl: record.outOfBandInvitation.toUrl({ domain: this.runtime.endpoints[0] }),
      invitation: record.outOfBandInvitation.toJSON(),
      outOfBandRecord: toRecordJson<OutOfBandRecordJson>(record),
    }
  }

  /** @throws {InvalidInputError} when the URL carries or leads to no invitation, or it cannot be received */
  public async receiveInvitationUrl(scope: AgentScope, body: ReceiveInvitationUrlRequest): Promise<ReceivedInvitation> {
    let invitation: DidCommOutOfBandInvitation
    try {
      // Not Credo's parseInvitation: its fetch follows redirects anywhere (transport/invitation-fetch.ts).
      invitation = await fetchInvitation(
        body.invitationUrl,
        scope.agent.dependencyManager.resolve(OutboundTargetGuard),
        scope.agent.config.agentDependencies,
      )
    } catch (error) {
      // Credo's reason (no `oob` parameter, not a DIDComm message, a short link that answers nothing usable).
      if (error instanceof IdplaneError) throw error
      throw new InvalidInputError(
        `invitationUrl holds no out-of-band invitation: ${(error as Error).message}`,
        [{ field: 'invitationUrl', message: 'must carry or lead to an out-of-band invitation' }],
        { cause: error },
      )
    }
    return this.receive(scope, invitation, body)
  }

  /** @throws {InvalidInputError} when the JSON is no out-of-band invitation, or it cannot be received */
  public async receiveInvitation(scope: AgentScope, body: ReceiveInvitationRequest): Promise<ReceivedInvitation> {
    let invitation: DidCommOutOfBandInvitation
    try {
      invitation = parseInvitationJson(body.invitation)
    } catch (error) {
      throw new InvalidInputError(
        'invitation is not a valid out-of-band invitation',
        [{ field: 'invitation', message: 'invalid' }],
        { cause: error },
      )
    }
    return this.receive(scope, invitation, body)
  }

  /**
   * Responder: answers a DID Exchange request that waits for it (an invitation made with `autoAcceptConnection`
   * false).
   * @throws {InvalidStateError} when the connection is not waiting for an answer to a request
   */
  public async acceptRequest(scope: AgentScope, connectionId: string): Promise<ConnectionRecordJson> {
    const record = await CONNECTION_RECORDS.find(scope, connectionId)
    if (record.state !== DidCommDidExchangeState.RequestReceived) {
      throw new InvalidStateError(`Connection is in state ${record.state}; no request to accept`)
    }
    const accepted = await protocolStep('state', 'The connection request cannot be accepted', () =>
      scope.agent.didcomm.connections.acceptRequest(connectionId),
    )
    return toRecordJson<ConnectionRecordJson>(accepted)
  }

  /** An invitation that cannot be accepted (an unresolvable DID as its service) is the caller's: a 400. */
  private async receive(
    scope: AgentScope,
    invitation: DidCommOutOfBandInvitation,
    body: ReceiveInvitationOptions,
  ): Promise<ReceivedInvitation> {
    await checkInvitationServices(invitation, scope.agent.dependencyManager.resolve(OutboundTargetGuard))
    const { outOfBandRecord, connectionRecord } = await protocolStep('input', 'The invitation cannot be received', () =>
      scope.agent.didcomm.oob
        .receiveInvitation(invitation, {
          label: body.label ?? scope.label,
          alias: body.alias,
          imageUrl: body.imageUrl ?? scope.imageUrl,
          ourDid: body.ourDid,
          autoAcceptConnection: body.autoAcceptConnection ?? false,
          autoAcceptInvitation: body.autoAcceptInvitation ?? false,
          reuseConnection: body.reuseConnection ?? false,
          acceptInvitationTimeoutMs: body.acceptInvitationTimeoutMs,
        })
        .catch((error: unknown) => {
          if (error instanceof MessageSendingError) return forgetUndelivered(scope, invitation.id, error)
          throw error
        }),
    )
    return {
      outOfBandRecord: toRecordJson<OutOfBandRecordJson>(outOfBandRecord),
      connectionRecord: connectionRecord && toRecordJson<ConnectionRecordJson>(connectionRecord),
    }
  }
}

/**
 * Forgets an invitation whose answer could not be sent (the 502 of a receive): its out-of-band record and the
 * connection made for it, then throws the 502. Credo refuses an invitation it holds ("already been received") and
 * never sends that request again, so without this a holder's retry, once the inviter is back, met a refusal and the
 * exchange stayed where it was. A connection reused for the invitation belongs to an earlier one and is kept. A failed
 * clean-up leaves what Credo kept and is logged; the 502 then says nothing of a retry.
 */
async function forgetUndelivered(scope: AgentScope, invitationId: string, error: MessageSendingError): Promise<never> {
  const reason = `The answer to the invitation could not be delivered to the other agent: ${reasonOf(error)}`
  const { oob, connections } = scope.agent.didcomm
  try {
    const record = await oob.findByReceivedInvitationId(invitationId)
    if (record) {
      for (const connection of await connections.findAllByOutOfBandId(record.id))
        await connections.deleteById(connection.id)
      await oob.deleteById(record.id)
    }
  } catch (cleanup) {
    scope.agent.config.logger.warn('Could not forget an invitation whose answer was not sent', {
      invitationId,
      error: cleanup instanceof Error ? cleanup.message : String(cleanup),
    })
    throw new UpstreamError(reason, { cause: error })
  }
  throw new UpstreamError(`${reason}; nothing was kept: receive the invitation again once the inviter can be reached`, {
    cause: error,
  })
}
