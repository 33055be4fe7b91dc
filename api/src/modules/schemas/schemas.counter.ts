import { injectable } from 'inversify'
import type { OrganizationCounter } from '../../infra/api-module'
import { SchemasRepository } from './schemas.repository'

type SchemaCounts = { schemas: number }

/** The organization's schemas, for the activity counts and the dashboard. */
@injectable()
export class SchemasCounter implements OrganizationCounter<SchemaCounts> {
  public constructor(private readonly schemas: SchemasRepository) {}

  public async count(orgId: string): Promise<SchemaCounts> {
    return { schemas: await this.schemas.countForOrg(orgId) }
  }

  public summarize(counts: SchemaCounts) {
    return { schemas: counts.schemas }
  }
}
