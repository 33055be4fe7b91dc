import { setTimeout as sleep } from 'node:timers/promises'
import { inject, injectable } from 'inversify'
import { ConflictError, InvalidInputError, NotFoundError } from '@idplane/common'
import type { StatusPurpose } from '@idplane/common/bitstring-status-list'
import { AgentClients } from '../../agent-client/agent-clients'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { ModuleRegistry } from '../../infra/module-registry'
import { platformEvent } from '../../infra/platform-events'
import { TOKENS } from '../../infra/tokens'
import { revocationsConfig } from '../revocations/revocations.config'
import { StatusLists } from '../status-lists/status-lists.service'
import { type CredentialRecord, isOpenId4VcRecordType } from './credential.entity'
import { CredentialsRepository } from './credentials.repository'
import { toCredentialRecordResponse, type CredentialRecordResponse } from './dto/credential.response'

/** The platform event announcing a published revocation (docs/api-usage.md, "Events"). */
export const CREDENTIAL_REVOKED = 'credential.revoked'
/** A published suspension of a JSON-LD credential (its status list says suspended). */
export const CREDENTIAL_SUSPENDED = 'credential.suspended'
/** A published reinstatement: the suspension is lifted in the served status list. */
export const CREDENTIAL_REINSTATED = 'credential.reinstated'

const EVENT_OF = {
  revoked: CREDENTIAL_REVOKED,
  suspended: CREDENTIAL_SUSPENDED,
  reinstated: CREDENTIAL_REINSTATED,
} as const

/** Issuer states after which the holder has the credential: only those can be revoked. */
const ISSUED_STATES: ReadonlySet<string> = new Set(['credential-issued', 'done'])
/** The same for an OpenID4VC offer: Credo's issuance-session states once a credential went out. */
const OPENID4VC_ISSUED_STATES: ReadonlySet<string> = new Set(['CredentialsPartiallyIssued', 'Completed'])

/** What `POST revocations/publish` published for one registry (AnonCreds) or status list (JSON-LD). */
export interface PublishedRevocations {
  revocationRegistryId: string | null
  statusListCredential: string | null
  revokedIndices: number[]
  credentialRecordIds: string[]
}

/** What the revoke route asks for. */
export interface StatusChangeRequest {
  publish: boolean
  /** @default revocation */
  purpose?: StatusPurpose
  /** With purpose suspension: lift it. */
  reinstate?: boolean
}

/**
 * Revocation of the credentials the organization issued with a status: AnonCreds credentials in a revocation
 * registry (issue 25 item 3), JSON-LD credentials with a Bitstring Status List entry (item 4: revoke, suspend and
 * reinstate) and SD-JWT VCs issued over OpenID4VC with a Token Status List entry (issue 29 item 4, the same way; the
 * record id is the offer's). A change is recorded (`pending`, committed) before it is published and marked after, so a process that
 * dies in between leaves it pending: asking again or `publish` publishes it, and none is lost.
 */
@injectable()
export class CredentialRevocations {
  /** REVOCATION_PUBLISH_TEST_DELAY_MS (tests only): widens the window between the ledger write and the commit. */
  private readonly publishTestDelayMs: number

  public constructor(
    private readonly records: CredentialsRepository,
    private readonly agents: AgentClients,
    private readonly modules: ModuleRegistry,
    private readonly statusLists: StatusLists,
    @inject(TOKENS.Config) config: Config,
  ) {
    this.publishTestDelayMs = sectionOf(config, revocationsConfig).publishTestDelayMs
  }

  /**
   * Revokes (or suspends, or reinstates) one issued credential: published at once, or with `publish` false recorded
   * as pending until `publishPending`.
   * @throws NotFoundError when the organization has no such record
   * @throws InvalidInputError when it was issued without a status, is not issued (yet), or the purpose or
   *   reinstatement does not apply to it
   * @throws ConflictError when it is already in the asked state (or pending, and `publish` is false)
   */
  public async revoke(
    orgId: string,
    credentialRecordId: string,
    request: StatusChangeRequest,
  ): Promise<CredentialRecordResponse> {
    const record = await this.records.findForOrg(orgId, credentialRecordId)
    if (!record) throw new NotFoundError('Issuance record not found')
    if (record.statusListId) return this.changeStatus(orgId, record, request)
    const { revocationRegistryId, revocationIndex } = record
    if (!revocationRegistryId || revocationIndex === null || revocationIndex === undefined)
      throw new InvalidInputError(
        'This credential cannot be revoked: it was not issued against a revocable credential definition, nor with a credentialStatus',
      )
    if ((request.purpose ?? 'revocation') !== 'revocation' || request.reinstate)
      throw new InvalidInputError(
        'An AnonCreds credential can only be revoked (permanently): suspension and reinstatement are for JSON-LD credentials issued with a suspension status',
      )
    this.assertIssued(record)
    if (record.revocationStatus === 'revoked') throw new ConflictError('This credential is already revoked')
    if (record.revocationStatus === 'pending') {
      // A pending one (asked for with publish false, or a publication a crash cut): publishing it finishes it.
      if (!request.publish)
        throw new ConflictError('This credential is already revoked; its revocation awaits publication')
    } else if (!(await this.records.markRevocationPending(orgId, credentialRecordId))) {
      // A concurrent request recorded it first: that one publishes it.
      throw new ConflictError('This credential is already revoked')
    }
    if (request.publish) await this.publish(orgId, revocationRegistryId, [revocationIndex])
    return this.current(orgId, credentialRecordId)
  }

  /** Publishes every pending revocation of the organization, one status list per registry or list. */
  public async publishPending(orgId: string): Promise<PublishedRevocations[]> {
    const pending = await this.records.pendingRevocations(orgId)
    const byRegistry = new Map<string, number[]>()
    for (const record of pending) {
      if (!record.revocationRegistryId || record.revocationIndex === null || record.revocationIndex === undefined)
        continue
      byRegistry.set(record.revocationRegistryId, [
        ...(byRegistry.get(record.revocationRegistryId) ?? []),
        record.revocationIndex,
      ])
    }
    const published: PublishedRevocations[] = []
    for (const [revocationRegistryId, indices] of byRegistry) {
      const marked = await this.publish(orgId, revocationRegistryId, indices)
      published.push({
        revocationRegistryId,
        statusListCredential: null,
        revokedIndices: indices,
        credentialRecordIds: marked.map((row) => row.credentialRecordId),
      })
    }
    const byList = new Map<string, number[]>()
    for (const record of await this.records.pendingStatusChanges(orgId)) {
      if (!record.statusListId || record.statusListIndex === null || record.statusListIndex === undefined) continue
      byList.set(record.statusListId, [...(byList.get(record.statusListId) ?? []), record.statusListIndex])
    }
    for (const [statusListId, indices] of byList) {
      const marked = await this.publishList(orgId, statusListId, indices)
      published.push({
        revocationRegistryId: null,
        statusListCredential: this.statusLists.urlOf(statusListId),
        revokedIndices: indices,
        credentialRecordIds: marked.map((row) => row.credentialRecordId),
      })
    }
    return published
  }

  /** JSON-LD: the entry's bit set (revoke, suspend) or cleared (reinstate), recorded, then published if asked. */
  private async changeStatus(
    orgId: string,
    record: CredentialRecord,
    request: StatusChangeRequest,
  ): Promise<CredentialRecordResponse> {
    const purpose = request.purpose ?? 'revocation'
    const statusListId = record.statusListId as string
    const index = record.statusListIndex as number
    // An OpenID4VC batch's copies each have an entry of the same list: a change applies to all of them.
    const indices = [index, ...(record.statusListCopyIndices ?? [])]
    if (purpose !== record.statusPurpose)
      throw new InvalidInputError(
        `This credential was issued with a ${record.statusPurpose} status: use purpose ${record.statusPurpose}`,
      )
    if (purpose === 'revocation' && request.reinstate)
      throw new InvalidInputError('A revocation is permanent: only a suspension can be reinstated')
    if (isOpenId4VcRecordType(record.credentialType)) await this.assertOfferIssued(orgId, record)
    else this.assertIssued(record)
    const { credentialRecordId } = record
    const current = { revocationStatus: record.revocationStatus ?? null, suspensionStatus: record.suspensionStatus }
    let wanted: Pick<CredentialRecord, 'revocationStatus' | 'suspensionStatus'> | undefined
    if (purpose === 'revocation') {
      if (record.revocationStatus === 'revoked') throw new ConflictError('This credential is already revoked')
      if (record.revocationStatus === 'pending' && !request.publish)
        throw new ConflictError('This credential is already revoked; its revocation awaits publication')
      if (record.revocationStatus !== 'pending') wanted = { revocationStatus: 'pending', suspensionStatus: null }
    } else if (request.reinstate) {
      if (!record.suspensionStatus) throw new ConflictError('This credential is not suspended')
      if (record.suspensionStatus === 'reinstating' && !request.publish)
        throw new ConflictError('This credential is already reinstated; its reinstatement awaits publication')
      if (record.suspensionStatus === 'pending')
        // Never published: dropping the request leaves the list as it is served.
        wanted = { revocationStatus: null, suspensionStatus: null }
      else if (record.suspensionStatus === 'suspended')
        wanted = { revocationStatus: null, suspensionStatus: 'reinstating' }
    } else {
      if (record.suspensionStatus === 'suspended') throw new ConflictError('This credential is already suspended')
      if (record.suspensionStatus === 'pending' && !request.publish)
        throw new ConflictError('This credential is already suspended; its suspension awaits publication')
      if (record.suspensionStatus === 'reinstating')
        // The served list still says suspended: withdrawing the reinstatement is all there is to do.
        wanted = { revocationStatus: null, suspensionStatus: 'suspended' }
      else if (record.suspensionStatus !== 'pending') wanted = { revocationStatus: null, suspensionStatus: 'pending' }
    }
    if (wanted) {
      // The bit as the list should say once published: set for a revocation or a suspension, clear when reinstated.
      const value =
        wanted.revocationStatus === 'pending' ||
        wanted.suspensionStatus === 'pending' ||
        wanted.suspensionStatus === 'suspended'
      const recorded = await this.records.transactional(async () => {
        if (!(await this.records.requestStatusChange(orgId, credentialRecordId, current, wanted))) return false
        for (const one of indices) await this.statusLists.setBit({ purpose, statusListId, index: one }, value)
        return true
      })
      if (!recorded) throw new ConflictError('A concurrent request changed this credential status first')
    }
    const after = wanted?.suspensionStatus ?? record.suspensionStatus
    const pending =
      (wanted?.revocationStatus ?? record.revocationStatus) === 'pending' ||
      after === 'pending' ||
      after === 'reinstating'
    if (request.publish && pending) await this.publishList(orgId, statusListId, indices)
    return this.current(orgId, credentialRecordId)
  }

  private assertIssued(record: CredentialRecord): void {
    if (record.role !== 'issuer' || !ISSUED_STATES.has(record.state))
      throw new InvalidInputError(`This credential cannot be revoked: it is not issued (state ${record.state})`)
  }

  /**
   * An OpenID4VC offer's record takes the states of its issuance session's events (oid4vc/issuance-session-records.ts).
   * When it does not say issued yet (an event still on its way, or an offer made before those events were kept), the
   * agent is asked now and its answer kept, so a credential not yet redeemed is refused like a DIDComm one not yet
   * issued, and one redeemed a moment ago is not.
   */
  private async assertOfferIssued(orgId: string, record: CredentialRecord): Promise<void> {
    if (OPENID4VC_ISSUED_STATES.has(record.state)) return
    const offer = await (await this.agents.openId4VcForOrg(orgId)).getOffer(record.credentialRecordId)
    if (offer.state !== record.state)
      await this.records.setOpenId4VcOfferState(orgId, record.credentialRecordId, offer.state)
    if (!OPENID4VC_ISSUED_STATES.has(offer.state))
      throw new InvalidInputError(`This credential cannot be revoked: it is not issued (state ${offer.state})`)
  }

  private async current(orgId: string, credentialRecordId: string): Promise<CredentialRecordResponse> {
    const current = await this.records.findForOrg(orgId, credentialRecordId, true)
    if (!current) throw new NotFoundError('Issuance record not found')
    return toCredentialRecordResponse(current)
  }

  /**
   * The agent revokes the indices and publishes the registry's next list; then they are marked and announced. A
   * publication a crash cut after the ledger write (before the commit) is retried the same way: the agent publishes
   * nothing for indices its list already has, so no revocation gets a second ledger entry.
   */
  private async publish(orgId: string, revocationRegistryId: string, indices: number[]): Promise<CredentialRecord[]> {
    const agent = await this.agents.forOrg(orgId)
    await agent.revokeAnonCredsCredentials({
      revocationRegistryDefinitionId: revocationRegistryId,
      revokedIndices: indices,
    })
    if (this.publishTestDelayMs > 0) await sleep(this.publishTestDelayMs)
    return this.records.transactional(async () => {
      const marked = await this.records.markRevoked(orgId, revocationRegistryId, indices)
      if (marked.length > 0)
        await this.modules.publish(
          marked.map((row) => platformEvent(CREDENTIAL_REVOKED, { orgId }, { ...toCredentialRecordResponse(row) })),
        )
      return marked
    })
  }

  /** The status list is re-signed with its bits as they are now; then the records are marked and announced. */
  private async publishList(orgId: string, statusListId: string, indices: number[]): Promise<CredentialRecord[]> {
    await this.statusLists.publish(orgId, statusListId)
    if (this.publishTestDelayMs > 0) await sleep(this.publishTestDelayMs)
    return this.records.transactional(async () => {
      const marked = await this.records.markStatusPublished(orgId, statusListId, indices)
      if (marked.length > 0)
        await this.modules.publish(
          marked.map(({ record, change }) =>
            platformEvent(EVENT_OF[change], { orgId }, { ...toCredentialRecordResponse(record) }),
          ),
        )
      return marked.map(({ record }) => record)
    })
  }
}
