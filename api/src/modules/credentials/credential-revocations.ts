import { injectable } from 'inversify'
import { ConflictError, InvalidInputError, NotFoundError } from '@idplane/common'
import { AgentClients } from '../../agent-client/agent-clients'
import { ModuleRegistry } from '../../infra/module-registry'
import { platformEvent } from '../../infra/platform-events'
import type { CredentialRecord } from './credential.entity'
import { CredentialsRepository } from './credentials.repository'
import { toCredentialRecordResponse, type CredentialRecordResponse } from './dto/credential.response'

/** The platform event announcing a published revocation (docs/api-usage.md, "Events"). */
export const CREDENTIAL_REVOKED = 'credential.revoked'

/** Issuer states after which the holder has the credential: only those can be revoked. */
const ISSUED_STATES: ReadonlySet<string> = new Set(['credential-issued', 'done'])

/** What `POST revocations/publish` published for one registry. */
export interface PublishedRevocations {
  revocationRegistryId: string
  revokedIndices: number[]
  credentialRecordIds: string[]
}

/**
 * Revocation of AnonCreds credentials the organization issued into a revocation registry (issue 25 item 3). A
 * revocation is recorded (`pending`, committed) before the agent publishes it and marked `revoked` after, so a
 * process that dies in between leaves it pending: asking again or `publish` publishes it (the agent's revoke is
 * idempotent: an index already revoked stays so), and none is lost.
 */
@injectable()
export class CredentialRevocations {
  public constructor(
    private readonly records: CredentialsRepository,
    private readonly agents: AgentClients,
    private readonly modules: ModuleRegistry,
  ) {}

  /**
   * Revokes one issued credential: published at once (a new status list on the ledger), or with `publish` false
   * recorded as pending until `publishPending`.
   * @throws NotFoundError when the organization has no such record
   * @throws InvalidInputError when it was not issued into a revocation registry, or is not issued (yet)
   * @throws ConflictError when it is already revoked (or pending, and `publish` is false)
   */
  public async revoke(orgId: string, credentialRecordId: string, publish: boolean): Promise<CredentialRecordResponse> {
    const record = await this.records.findForOrg(orgId, credentialRecordId)
    if (!record) throw new NotFoundError('Issuance record not found')
    const { revocationRegistryId, revocationIndex } = record
    if (!revocationRegistryId || revocationIndex === null || revocationIndex === undefined)
      throw new InvalidInputError(
        'This credential cannot be revoked: it was not issued against a revocable credential definition',
      )
    if (record.role !== 'issuer' || !ISSUED_STATES.has(record.state))
      throw new InvalidInputError(`This credential cannot be revoked: it is not issued (state ${record.state})`)
    if (record.revocationStatus === 'revoked') throw new ConflictError('This credential is already revoked')
    if (record.revocationStatus === 'pending') {
      // A pending one (asked for with publish false, or a publication a crash cut): publishing it finishes it.
      if (!publish) throw new ConflictError('This credential is already revoked; its revocation awaits publication')
    } else if (!(await this.records.markRevocationPending(orgId, credentialRecordId))) {
      // A concurrent request recorded it first: that one publishes it.
      throw new ConflictError('This credential is already revoked')
    }
    if (publish) await this.publish(orgId, revocationRegistryId, [revocationIndex])
    const current = await this.records.findForOrg(orgId, credentialRecordId, true)
    if (!current) throw new NotFoundError('Issuance record not found')
    return toCredentialRecordResponse(current)
  }

  /** Publishes every pending revocation of the organization, one status list per registry. */
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
        revokedIndices: indices,
        credentialRecordIds: marked.map((row) => row.credentialRecordId),
      })
    }
    return published
  }

  /** The agent revokes the indices and publishes the registry's next list; then they are marked and announced. */
  private async publish(orgId: string, revocationRegistryId: string, indices: number[]): Promise<CredentialRecord[]> {
    const agent = await this.agents.forOrg(orgId)
    await agent.revokeAnonCredsCredentials({
      revocationRegistryDefinitionId: revocationRegistryId,
      revokedIndices: indices,
    })
    return this.records.transactional(async () => {
      const marked = await this.records.markRevoked(orgId, revocationRegistryId, indices)
      if (marked.length > 0)
        await this.modules.publish(
          marked.map((row) => platformEvent(CREDENTIAL_REVOKED, { orgId }, { ...toCredentialRecordResponse(row) })),
        )
      return marked
    })
  }
}
