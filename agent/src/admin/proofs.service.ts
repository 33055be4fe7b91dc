import type { AnonCredsRequestProofFormat } from '@credo-ts/anoncreds'
import type { Query } from '@credo-ts/core'
import type { DidCommProofExchangeRecord, DidCommProofState } from '@credo-ts/didcomm'
import type {
  AcceptProofRequestRequest,
  AnonCredsProofRequestInput,
  ExchangeQuery,
  OobProofRequest,
  OobRequestProofRequest,
  OutOfBandRecordJson,
  ProofFormData,
  ProofRecordJson,
  ProofVerification,
  RequestProofRequest,
} from '@idplane/common/agent-contract/admin-api'
import { InvalidInputError, InvalidStateError } from '@idplane/common'

import { readPresentationRequest } from '../anoncreds'
import { type Answer, withMessage } from './admin-routes'
import { AgentRecords, toRecordJson } from './agent-records'
import type { AgentRuntime } from './agent-runtime'
import type { AgentScope } from './agent-scope'
import { asStepFailure, protocolStep } from './credo-errors'
import { endExchangeOnFormatFailure } from './exchange-failures'
import { toAutoAcceptProof } from './exchange-mapping'
import { InvitationDids } from './invitation-dids'
import { toProofFormData } from './proof-form-data'

export const PROOF_RECORDS = new AgentRecords<
  DidCommProofExchangeRecord,
  ExchangeQuery,
  Query<DidCommProofExchangeRecord>,
  ProofRecordJson
>({
  name: 'Proof record',
  api: (agent) => agent.didcomm.proofs,
  toQuery: (filter) => ({
    threadId: filter.threadId,
    connectionId: filter.connectionId,
    state: filter.state as DidCommProofState | undefined,
  }),
})

/**
 * Present Proof v2 with DIF Presentation Exchange, v1 and v2 with AnonCreds (verifier and holder side). What a format
 * service refuses is the caller's: a request it cannot make is a 400, one the wallet cannot answer a 409.
 */
export class ProofsService {
  private readonly invitationDids = new InvitationDids()

  public constructor(private readonly runtime: AgentRuntime) {}

  /** DIF PE over Present Proof v2, or AnonCreds: v2 in the `anoncreds` format, v1 in the `indy` format. */
  public async request(scope: AgentScope, body: RequestProofRequest): Promise<ProofRecordJson> {
    const options = {
      connectionId: body.connectionId,
      comment: body.comment,
      goalCode: body.goalCode,
      willConfirm: body.willConfirm,
      autoAcceptProof: toAutoAcceptProof(body.autoAcceptProof),
    }
    const proofs = scope.agent.didcomm.proofs
    const anoncreds = body.proofFormats?.anoncreds && anonCredsProofRequest(body.proofFormats.anoncreds)
    if (!anoncreds && body.protocolVersion === 'v1') throw v1NeedsAnonCreds()
    const record = await protocolStep('input', 'The proof request cannot be made', () =>
      anoncreds
        ? body.protocolVersion === 'v1'
          ? proofs.requestProof({ ...options, protocolVersion: 'v1', proofFormats: { indy: anoncreds } })
          : proofs.requestProof({ ...options, protocolVersion: 'v2', proofFormats: { anoncreds } })
        : proofs.requestProof({
            ...options,
            protocolVersion: 'v2',
            proofFormats: { presentationExchange: { presentationDefinition: body.presentationDefinition as never } },
          }),
    )
    return toRecordJson<ProofRecordJson>(record)
  }

  public async requestOutOfBand(scope: AgentScope, body: OobRequestProofRequest): Promise<OobProofRequest> {
    const agent = scope.agent
    const options = {
      comment: body.comment,
      goalCode: body.goalCode,
      autoAcceptProof: toAutoAcceptProof(body.autoAcceptProof),
    }
    const proofs = agent.didcomm.proofs
    const anoncreds = body.proofFormats?.anoncreds && anonCredsProofRequest(body.proofFormats.anoncreds)
    if (!anoncreds && body.protocolVersion === 'v1') throw v1NeedsAnonCreds()
    const { message, proofRecord } = await protocolStep('input', 'The proof request cannot be made', () =>
      !anoncreds
        ? proofs.createRequest({
            ...options,
            protocolVersion: 'v2',
            proofFormats: { presentationExchange: { presentationDefinition: body.presentationDefinition as never } },
          })
        : body.protocolVersion === 'v1'
          ? proofs.createRequest({ ...options, protocolVersion: 'v1', proofFormats: { indy: anoncreds } })
          : proofs.createRequest({ ...options, protocolVersion: 'v2', proofFormats: { anoncreds } }),
    )
    // reuseConnection: the wallet's standing invitation DID, so a holder already connected through it reuses
    // that connection instead of making a new one.
    const invitationDid = body.reuseConnection
      ? await this.invitationDids.forInvitation(agent, { kind: 'reusable' })
      : undefined
    const oob = await agent.didcomm.oob.createInvitation({
      label: body.label ?? scope.label,
      imageUrl: scope.imageUrl,
      messages: [message],
      handshake: true,
      autoAcceptConnection: true,
      invitationDid,
    })
    return {
      invitationUrl: oob.outOfBandInvitation.toUrl({ domain: this.runtime.endpoints[0] }),
      invitation: oob.outOfBandInvitation.toJSON(),
      outOfBandRecord: toRecordJson<OutOfBandRecordJson>(oob),
      proofRecord: toRecordJson<ProofRecordJson>(proofRecord),
    }
  }

  /**
   * Holder: answers with credentials chosen automatically for the format(s) the request uses. When the wallet cannot
   * answer (no credential satisfies the request, a predicate it does not meet, a credential it cannot present), the
   * exchange ends: a problem report to the verifier and the record abandoned with the reason.
   * @throws {ConflictError} when the request cannot be answered (the exchange is then abandoned)
   * @throws {InvalidStateError} when the record is in another state
   */
  public async acceptRequest(scope: AgentScope, body: AcceptProofRequestRequest): Promise<ProofRecordJson> {
    const proofs = scope.agent.didcomm.proofs
    const record = await endExchangeOnFormatFailure(
      scope,
      'proof',
      body.proofRecordId,
      'The proof request cannot be answered',
      async () => {
        // Credo's default leaves out credentials revoked at the requested time; false presents them anyway (the
        // verifier then sees the failed non-revocation proof).
        const selected = await proofs.selectCredentialsForRequest({
          proofExchangeRecordId: body.proofRecordId,
          proofFormats: await nonRevocationFilter(scope, body),
        })
        return proofs.acceptRequest({
          proofExchangeRecordId: body.proofRecordId,
          proofFormats: selected.proofFormats,
          comment: body.comment,
        })
      },
    )
    return toRecordJson<ProofRecordJson>(record)
  }

  /** Verifier: accepts a received presentation (Credo verified it on receipt) and reports the result. */
  public async verify(
    scope: AgentScope,
    proofRecordId: string,
  ): Promise<ProofVerification | Answer<ProofVerification>> {
    const proofs = scope.agent.didcomm.proofs
    let record = await proofs.getById(proofRecordId)
    if (record.state === 'presentation-received') {
      try {
        record = await proofs.acceptPresentation({ proofExchangeRecordId: proofRecordId })
      } catch (error) {
        // An exchange that auto-accepts may have accepted the presentation meanwhile.
        record = await proofs.getById(proofRecordId)
        if (record.state !== 'done') throw asStepFailure(error, 'state', 'The presentation cannot be accepted')
      }
    } else if (record.state === 'abandoned' && record.isVerified === false) {
      // The presentation arrived and failed verification (the record carries the reason in errorMessage).
      return withMessage(
        { isVerified: false, proofRecord: toRecordJson<ProofRecordJson>(record) },
        'Proof verification failed',
      )
    } else if (record.state !== 'done') {
      throw new InvalidStateError(`Proof is in state ${record.state}; nothing to verify`)
    }
    return { isVerified: record.isVerified === true, proofRecord: toRecordJson<ProofRecordJson>(record) }
  }

  /** The submitted presentation, its revealed values and the verification result. */
  public formData(scope: AgentScope, proofRecordId: string): Promise<ProofFormData> {
    const proofs = scope.agent.didcomm.proofs
    return protocolStep('state', 'The format data cannot be read', async () =>
      toProofFormData(await proofs.getById(proofRecordId), await proofs.getFormatData(proofRecordId)),
    )
  }
}

/**
 * The holder's choice about revoked credentials, under the key of the AnonCreds format the request came in (Credo
 * refuses options for a format the request does not carry); nothing when it made none or the request is not AnonCreds.
 */
async function nonRevocationFilter(
  scope: AgentScope,
  body: AcceptProofRequestRequest,
): Promise<Record<string, { filterByNonRevocationRequirements: boolean }> | undefined> {
  const filter = body.filterByNonRevocationRequirements
  if (filter === undefined) return undefined
  const request = (await scope.agent.didcomm.proofs.getFormatData(body.proofRecordId)).request ?? {}
  const format = 'indy' in request ? 'indy' : 'anoncreds' in request ? 'anoncreds' : undefined
  return format ? { [format]: { filterByNonRevocationRequirements: filter } } : undefined
}

function v1NeedsAnonCreds() {
  return new InvalidInputError('Present Proof v1 carries AnonCreds only', [
    { field: 'protocolVersion', message: 'v1 needs proofFormats.anoncreds' },
  ])
}

/** The request Credo's format services take (Credo adds the nonce). */
function anonCredsProofRequest(input: AnonCredsProofRequestInput): AnonCredsRequestProofFormat {
  const request = {
    name: input.name ?? 'proof-request',
    version: input.version ?? '1.0',
    requested_attributes: (input.requested_attributes ?? {}) as AnonCredsRequestProofFormat['requested_attributes'],
    requested_predicates: (input.requested_predicates ?? {}) as AnonCredsRequestProofFormat['requested_predicates'],
    ...(input.non_revoked === undefined ? {} : { non_revoked: input.non_revoked }),
  }
  // Credo sends the request as given; checked here so a malformed one is a 400, not a holder-side failure.
  readPresentationRequest({ ...request, nonce: '1' }, 'proofFormats.anoncreds')
  checkIntervals(input)
  return request
}

/**
 * Every `non_revoked` interval (the request's and each referent's): seconds since the epoch, `from` not after `to`.
 * @throws {InvalidInputError}
 */
function checkIntervals(input: AnonCredsProofRequestInput): void {
  const errors: { field: string; message: string }[] = []
  const check = (interval: unknown, field: string) => {
    if (interval === undefined) return
    if (typeof interval !== 'object' || interval === null || Array.isArray(interval)) {
      errors.push({ field, message: 'must be an object with from and/or to' })
      return
    }
    const { from, to, ...rest } = interval as Record<string, unknown>
    const isTime = (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
    if (Object.keys(rest).length > 0) errors.push({ field, message: 'may hold only from and to' })
    else if ((from !== undefined && !isTime(from)) || (to !== undefined && !isTime(to)))
      errors.push({ field, message: 'from and to must be whole seconds since the epoch' })
    else if (from === undefined && to === undefined) errors.push({ field, message: 'needs from or to' })
    else if (from !== undefined && to !== undefined && (from as number) > (to as number))
      errors.push({ field, message: 'from must not be after to' })
  }
  const base = 'proofFormats.anoncreds'
  check(input.non_revoked, `${base}.non_revoked`)
  for (const [referent, item] of Object.entries(input.requested_attributes ?? {}))
    check(item?.non_revoked, `${base}.requested_attributes.${referent}.non_revoked`)
  for (const [referent, item] of Object.entries(input.requested_predicates ?? {}))
    check(item?.non_revoked, `${base}.requested_predicates.${referent}.non_revoked`)
  if (errors.length > 0) throw new InvalidInputError('A non_revoked interval is malformed', errors)
}
