import { injectable } from 'inversify'
import type { OrganizationCounter } from '../../infra/api-module'
import { MembershipsRepository } from './memberships.repository'

type MembershipCounts = { members: number }

/** The organization's members, on the activity count and the dashboard. */
@injectable()
export class MembershipsCounter implements OrganizationCounter<MembershipCounts> {
  public constructor(private readonly memberships: MembershipsRepository) {}

  public async count(orgId: string): Promise<MembershipCounts> {
    return { members: await this.memberships.countMembers(orgId) }
  }

  public summarize(counts: MembershipCounts) {
    return { members: counts.members }
  }
}
