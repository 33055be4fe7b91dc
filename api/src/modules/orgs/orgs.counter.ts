import { injectable } from 'inversify'
import type { OrganizationCounter } from '../../infra/api-module'
import { ClientCredentialsRepository } from './client-credentials.repository'
import { OrgDidsRepository } from './org-dids.repository'

type OrgCounts = { dids: number; clientCredentials: number }

/** The organization's DIDs and client credentials (docs/decisions.md, Organizations: dashboard and activity counts). */
@injectable()
export class OrgsCounter implements OrganizationCounter<OrgCounts> {
  public constructor(
    private readonly dids: OrgDidsRepository,
    private readonly credentials: ClientCredentialsRepository,
  ) {}

  public async count(orgId: string): Promise<OrgCounts> {
    return {
      dids: await this.dids.countForOrg(orgId),
      clientCredentials: await this.credentials.countForOrg(orgId),
    }
  }

  public summarize(counts: OrgCounts) {
    return { dids: counts.dids, hasClientCredentials: counts.clientCredentials > 0 }
  }
}
