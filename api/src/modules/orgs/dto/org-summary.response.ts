import { boolean, integer, object, unchecked } from '../../../infra/http/data-schema'
import type { DashboardSummary } from '../org-members.service'
import type { OrganizationCounts } from '../orgs.repository'

/** DashboardSummary in the OpenAPI document. */
export const DASHBOARD_SCHEMA = object<DashboardSummary>('Dashboard', {
  members: integer,
  pendingInvitations: integer,
  dids: integer,
  hasClientCredentials: boolean,
})

/**
 * OrganizationCounts in the OpenAPI document: counters by name, each a number or numbers by status. Left open
 * because each module contributes its own counters (issue 8, Part 1, item 1).
 */
export const ORGANIZATION_COUNTS_SCHEMA = unchecked<OrganizationCounts>('OrganizationCounts', {
  type: 'object',
  additionalProperties: {
    oneOf: [{ type: 'integer' }, { type: 'object', additionalProperties: { type: 'integer' } }],
  },
})
