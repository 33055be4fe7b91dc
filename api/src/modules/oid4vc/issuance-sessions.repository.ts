import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { OrgRepository, type LockedRow } from '../../infra/db/base.repository'
import { IssuanceSessionRecord } from './issuance-session.entity'
import type { IssuanceSessionFields } from './issuance-session.mapper'

/** Issuance sessions of organizations; every lookup takes the organization first. */
@injectable()
export class IssuanceSessionsRepository extends OrgRepository<IssuanceSessionRecord> {
  public constructor(em: EntityManager) {
    super(em, IssuanceSessionRecord)
  }

  /**
   * The organization's session with this id, locked until the transaction ends; inserted first (the given fields)
   * when absent, so two reports of one new session racing both find the one row. `isNew` tells whether this call
   * inserted it.
   * @returns null when the id belongs to another organization's session
   */
  public async lockOrCreate(
    orgId: string,
    fields: IssuanceSessionFields,
  ): Promise<LockedRow<IssuanceSessionRecord> | null> {
    return this.lockOrCreateExchange({ id: fields.id, organization: orgId }, fields)
  }

  public findForOrg(orgId: string, sessionId: string): Promise<IssuanceSessionRecord | null> {
    return this.findInOrg(orgId, sessionId)
  }
}
