import { inject, injectable } from 'inversify'
import { InvalidInputError, NotFoundError } from '@idplane/common'
import type { OrgDid } from './org-did.entity'
import { OrgDidsRepository } from './org-dids.repository'

/** The public surface of OrgDidsRepository, so unit tests can hand in a fake. */
export type OrgDidStore = Pick<OrgDidsRepository, keyof OrgDidsRepository>

/**
 * An organization's DIDs and its primary DID (spec: States and transitions, Organization DID). Once an
 * organization has any DID, exactly one of them is primary: the first registered, until another is chosen.
 */
@injectable()
export class OrgDidsService {
  public constructor(@inject(OrgDidsRepository) private readonly dids: OrgDidStore) {}

  public async list(orgId: string): Promise<OrgDid[]> {
    return this.dids.listForOrg(orgId)
  }

  /**
   * Makes a DID record of the organization its primary DID; the previous primary is unset in the same
   * transaction. Choosing the current primary again changes nothing.
   * @throws NotFoundError when the record does not exist in this organization
   * @throws InvalidInputError when `did` is not the record's DID
   */
  public async setPrimary(orgId: string, recordId: string, did: string): Promise<OrgDid> {
    return this.dids.withOrganizationLocked(orgId, async () => {
      const record = await this.dids.findForOrg(orgId, recordId)
      if (!record) throw new NotFoundError('DID not found')
      if (record.did !== did) {
        throw new InvalidInputError('DID does not match the record', [
          { field: 'did', message: 'did must be the DID of the record named by id' },
        ])
      }
      if (!record.isPrimaryDid) await this.dids.makePrimary(orgId, record)
      return record
    })
  }

  /**
   * Records a DID the organization's agent created (for the provisioning code). The organization's first
   * DID becomes primary; `primary: true` makes this one primary instead of the current one. Registering
   * the same DID again returns the existing record (provisioning retries are safe).
   * @throws NotFoundError when the organization does not exist
   */
  public async register(
    orgId: string,
    did: string,
    method: string,
    options: { primary?: boolean } = {},
  ): Promise<OrgDid> {
    return this.dids.withOrganizationLocked(orgId, async () => {
      const shouldBePrimary = options.primary === true || !(await this.dids.hasPrimary(orgId))
      const record = (await this.dids.findByDid(orgId, did)) ?? (await this.dids.insert(orgId, did, method))
      if (shouldBePrimary && !record.isPrimaryDid) await this.dids.makePrimary(orgId, record)
      return record
    })
  }
}
