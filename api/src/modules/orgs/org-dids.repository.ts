import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { NotFoundError } from '@idplane/common'
import { OrgDid } from './org-did.entity'
import { Organization } from './organization.entity'
import { OrgsRepository } from './orgs.repository'
import { OrgRepository } from '../../infra/db/base.repository'

/** Storage of an organization's DIDs; every query takes the organization id first. */
@injectable()
export class OrgDidsRepository extends OrgRepository<OrgDid> {
  public constructor(
    em: EntityManager,
    private readonly orgs: OrgsRepository,
  ) {
    super(em, OrgDid)
  }

  public async listForOrg(orgId: string): Promise<OrgDid[]> {
    return this.em.find(OrgDid, { organization: orgId }, { orderBy: { createdAt: 'asc', id: 'asc' } })
  }

  public async findForOrg(orgId: string, id: string): Promise<OrgDid | null> {
    return this.em.findOne(OrgDid, { organization: orgId, id })
  }

  public async findByDid(orgId: string, did: string): Promise<OrgDid | null> {
    return this.em.findOne(OrgDid, { organization: orgId, did })
  }

  public async findPrimary(orgId: string): Promise<OrgDid | null> {
    return this.em.findOne(OrgDid, { organization: orgId, isPrimaryDid: true })
  }

  public async countForOrg(orgId: string): Promise<number> {
    return this.em.count(OrgDid, { organization: orgId })
  }

  public async hasPrimary(orgId: string): Promise<boolean> {
    return (await this.em.count(OrgDid, { organization: orgId, isPrimaryDid: true })) > 0
  }

  /**
   * Runs `work` in one transaction holding the organization row lock, so that changes of the primary DID
   * of one organization happen one at a time (the partial unique index would otherwise fail the loser).
   * Inside `work` this repository's queries run in that transaction.
   * @throws NotFoundError when the organization does not exist
   */
  public async withOrganizationLocked<T>(orgId: string, work: () => Promise<T>): Promise<T> {
    return this.em.transactional(async () => {
      // The one organization lock (OrgsRepository.lock), so DID and membership changes queue on the same row.
      if (!(await this.orgs.lock(orgId))) throw new NotFoundError('Organization not found')
      return work()
    })
  }

  public async insert(orgId: string, did: string, method: string): Promise<OrgDid> {
    const record = this.em.create(OrgDid, { organization: this.em.getReference(Organization, orgId), did, method })
    await this.em.flush()
    return record
  }

  /** Unsets the organization's current primary before setting the new one (the index allows one). */
  public async makePrimary(orgId: string, record: OrgDid): Promise<void> {
    await this.em.nativeUpdate(
      OrgDid,
      { organization: orgId, isPrimaryDid: true, id: { $ne: record.id } },
      { isPrimaryDid: false },
    )
    record.isPrimaryDid = true
    await this.em.flush()
  }
}
