import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { EcosystemMembership } from '../ecosystems/ecosystem-membership.entity'
import { OrgRepository, type PageRequest } from '../../infra/db/base.repository'

/** The organizations of an ecosystem (its EcosystemMembership rows, the lead's included), as its lead manages them. */
@injectable()
export class EcosystemMembersRepository extends OrgRepository<EcosystemMembership> {
  public constructor(em: EntityManager) {
    super(em, EcosystemMembership)
  }

  /** Every organization of the ecosystem: the lead first, then members in the order they were invited. */
  public list(ecosystemId: string, page: PageRequest): Promise<[EcosystemMembership[], number]> {
    return this.findPage(
      { ecosystem: ecosystemId },
      page,
      { role: 'asc', createdAt: 'asc' },
      { populate: ['ecosystem', 'organization'] },
    )
  }

  public async remove(rows: readonly EcosystemMembership[]): Promise<void> {
    for (const row of rows) this.em.remove(row)
    await this.em.flush()
  }
}
