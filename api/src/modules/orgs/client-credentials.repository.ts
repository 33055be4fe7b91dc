import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { ClientCredential } from './client-credential.entity'
import { Organization } from './organization.entity'
import { OrgRepository } from '../../infra/db/base.repository'

export type ClientCredentialFields = Pick<ClientCredential, 'clientId' | 'secretHash' | 'secretHint' | 'createdBy'>

/** Storage of organizations' machine-to-machine credentials (one pair per organization). */
@injectable()
export class ClientCredentialsRepository extends OrgRepository<ClientCredential> {
  public constructor(em: EntityManager) {
    super(em, ClientCredential)
  }

  public findForOrg(orgId: string): Promise<ClientCredential | null> {
    return this.em.findOne(ClientCredential, { organization: orgId })
  }

  /** The credential of a client id, of whichever organization it belongs to (the token exchange). */
  public findByClientId(clientId: string): Promise<ClientCredential | null> {
    return this.em.findOne(ClientCredential, { clientId })
  }

  /**
   * Stores the organization's credential pair, replacing an earlier one, in one transaction; `onReplacing` runs
   * in that transaction with the credential being replaced (its sessions end with it).
   * @returns false when the organization does not exist
   */
  public async replaceForOrg(
    orgId: string,
    fields: ClientCredentialFields,
    onReplacing?: (previous: ClientCredential) => Promise<void>,
  ): Promise<boolean> {
    return this.em.transactional(async (em) => {
      const org = await em.findOne(Organization, { id: orgId })
      if (!org) return false
      const existing = await em.findOne(ClientCredential, { organization: orgId })
      if (existing) await onReplacing?.(existing)
      if (existing) em.assign(existing, fields)
      else em.create(ClientCredential, { organization: org, ...fields })
      return true
    })
  }

  public countForOrg(orgId: string): Promise<number> {
    return this.em.count(ClientCredential, { organization: orgId })
  }
}
