import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { OrgRepository, type LockedRow } from '../../infra/db/base.repository'
import { VerificationSessionRecord } from './verification-session.entity'
import type { VerificationSessionFields } from './verification-session.mapper'

/** Verification sessions of organizations; every lookup takes the organization first. */
@injectable()
export class VerificationSessionsRepository extends OrgRepository<VerificationSessionRecord> {
  public constructor(em: EntityManager) {
    super(em, VerificationSessionRecord)
  }

  /**
   * The organization's session with this id, locked until the transaction ends; inserted first (the given fields)
   * when absent, so two reports of one new session racing both find the one row. `isNew` tells whether this call
   * inserted it.
   * @returns null when the id belongs to another organization's session
   */
  public async lockOrCreate(
    orgId: string,
    fields: VerificationSessionFields,
  ): Promise<LockedRow<VerificationSessionRecord> | null> {
    return this.lockOrCreateExchange(
      { id: fields.id, organization: orgId },
      { ...fields, disclosed: fields.disclosed ?? null },
    )
  }

  public findForOrg(orgId: string, sessionId: string): Promise<VerificationSessionRecord | null> {
    return this.findInOrg(orgId, sessionId)
  }
}
