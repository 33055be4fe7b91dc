import { unchecked } from '../../../infra/http/data-schema'
import type { ActivityCounts, DashboardEntries } from '../../../infra/api-module'

/**
 * DashboardEntries in the OpenAPI document: entries by name, each a number or a flag. Left open because each
 * module contributes its own (docs/architecture.md, "Adding a module").
 */
export const DASHBOARD_SCHEMA = unchecked<DashboardEntries>('Dashboard', {
  type: 'object',
  additionalProperties: { oneOf: [{ type: 'integer' }, { type: 'boolean' }] },
})

/**
 * ActivityCounts in the OpenAPI document: counters by name, each a number or numbers by status. Left open
 * because each module contributes its own counters.
 */
export const ORGANIZATION_COUNTS_SCHEMA = unchecked<ActivityCounts>('OrganizationCounts', {
  type: 'object',
  additionalProperties: {
    oneOf: [{ type: 'integer' }, { type: 'object', additionalProperties: { type: 'integer' } }],
  },
})
