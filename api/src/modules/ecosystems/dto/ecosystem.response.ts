import { arrayOf, dateTime, integer, nullable, object, oneOf, string, uuid } from '../../../infra/http/data-schema'
import { toPage, type Page } from '../../../infra/http/pagination'
import type { Ecosystem } from '../ecosystem.entity'
import {
  ECOSYSTEM_ORG_ROLES,
  ECOSYSTEM_ORG_STATUSES,
  type EcosystemMembership,
  type EcosystemOrgRole,
  type EcosystemOrgStatus,
} from '../ecosystem-membership.entity'

/** An ecosystem as the API shows it (spec: Ecosystem; stored fields beyond the create fields are ours). */
export interface EcosystemResponse {
  id: string
  name: string
  description: string
  tags: string | null
  logoUrl: string | null
  leadOrgId: string
  createdAt: string
  updatedAt: string
}

/** An item of `GET /ecosystem`: the ecosystem and the role the listed organization holds in it. */
export interface EcosystemListItem extends EcosystemResponse {
  orgRole: EcosystemOrgRole
}

/**
 * One organization in one ecosystem: an invitation (its status is the answer) or a member. The record of the
 * invitation, member and status routes and of the `ecosystem.*` webhook events.
 */
export interface EcosystemMembershipResponse {
  id: string
  ecosystemId: string
  ecosystemName: string
  orgId: string
  orgName: string
  role: EcosystemOrgRole
  status: EcosystemOrgStatus
  createdAt: string
  updatedAt: string
}

/** `GET /ecosystem/:ecosystemId/org/:orgId`. */
export interface EcosystemDashboardResponse {
  ecosystem: EcosystemResponse
  leadOrg: { id: string; name: string }
  org: { id: string; name: string; role: EcosystemOrgRole; status: EcosystemOrgStatus }
  members: { total: number; accepted: number; pending: number; rejected: number }
}

export function toEcosystemResponse(ecosystem: Ecosystem): EcosystemResponse {
  return {
    id: ecosystem.id,
    name: ecosystem.name,
    description: ecosystem.description,
    tags: ecosystem.tags ?? null,
    logoUrl: ecosystem.logoUrl ?? null,
    leadOrgId: ecosystem.leadOrganization.id,
    createdAt: ecosystem.createdAt.toISOString(),
    updatedAt: ecosystem.updatedAt.toISOString(),
  }
}

/** A page of memberships (invitations or members) as the list routes answer it. */
export function toMembershipPage(
  rows: readonly EcosystemMembership[],
  total: number,
  query: { pageNumber: number; pageSize: number },
): Page<EcosystemMembershipResponse> {
  return toPage(rows.map(toMembershipResponse), total, query)
}

/** The row with its ecosystem and organization loaded. */
export function toMembershipResponse(row: EcosystemMembership): EcosystemMembershipResponse {
  return {
    id: row.id,
    ecosystemId: row.ecosystem.id,
    ecosystemName: row.ecosystem.name,
    orgId: row.organization.id,
    orgName: row.organization.name,
    role: row.role,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

const ECOSYSTEM_FIELDS = {
  id: uuid,
  name: string,
  description: string,
  tags: nullable(string),
  logoUrl: nullable(string),
  leadOrgId: uuid,
  createdAt: dateTime,
  updatedAt: dateTime,
}

export const ECOSYSTEM_SCHEMA = object<EcosystemResponse>('Ecosystem', ECOSYSTEM_FIELDS)

export const ECOSYSTEM_LIST_ITEM_SCHEMA = object<EcosystemListItem>('EcosystemListItem', {
  ...ECOSYSTEM_FIELDS,
  orgRole: oneOf(ECOSYSTEM_ORG_ROLES),
})

export const ECOSYSTEM_MEMBERSHIP_SCHEMA = object<EcosystemMembershipResponse>('EcosystemMembership', {
  id: uuid,
  ecosystemId: uuid,
  ecosystemName: string,
  orgId: uuid,
  orgName: string,
  role: oneOf(ECOSYSTEM_ORG_ROLES),
  status: oneOf(ECOSYSTEM_ORG_STATUSES),
  createdAt: dateTime,
  updatedAt: dateTime,
})

export const ECOSYSTEM_MEMBERSHIPS_SCHEMA = arrayOf(ECOSYSTEM_MEMBERSHIP_SCHEMA)

export const ECOSYSTEM_DASHBOARD_SCHEMA = object<EcosystemDashboardResponse>('EcosystemDashboard', {
  ecosystem: ECOSYSTEM_SCHEMA,
  leadOrg: object<EcosystemDashboardResponse['leadOrg']>(undefined, { id: uuid, name: string }),
  org: object<EcosystemDashboardResponse['org']>(undefined, {
    id: uuid,
    name: string,
    role: oneOf(ECOSYSTEM_ORG_ROLES),
    status: oneOf(ECOSYSTEM_ORG_STATUSES),
  }),
  members: object<EcosystemDashboardResponse['members']>(undefined, {
    total: integer,
    accepted: integer,
    pending: integer,
    rejected: integer,
  }),
})
