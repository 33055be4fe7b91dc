import type { Organization } from '../organization.entity'
import type { OrgRole } from '../../roles/org-role.entity'
import { servableLogo } from '../logo'

/** An organization as members see it (spec: Resources, Organization). */
export interface OrganizationResponse {
  id: string
  name: string
  slug: string
  description: string
  logoUrl: string
  website: string | null
  registrationNumber: string | null
  notificationWebhook: string | null
  isPublic: boolean
  countryId: number | null
  stateId: number | null
  cityId: number | null
  createdAt: string
  updatedAt: string
}

/** A list item of `GET /v1/orgs`, carrying the caller's roles in it. */
export interface OrganizationListItem extends OrganizationResponse {
  userOrgRoles: { orgRole: { id: string; name: string } }[]
}

/** What anyone may see of a public organization: never members, settings or the webhook. */
export interface PublicProfileResponse {
  id: string
  name: string
  slug: string
  description: string
  logoUrl: string
  website: string | null
  createdAt: string
}

export function toOrganizationResponse(org: Organization): OrganizationResponse {
  return {
    id: org.id,
    name: org.name,
    slug: org.slug,
    description: org.description,
    logoUrl: servableLogo(org.logoUrl),
    website: org.website ?? null,
    registrationNumber: org.registrationNumber ?? null,
    notificationWebhook: org.notificationWebhook ?? null,
    isPublic: org.isPublic,
    countryId: org.countryId ?? null,
    stateId: org.stateId ?? null,
    cityId: org.cityId ?? null,
    createdAt: org.createdAt.toISOString(),
    updatedAt: org.updatedAt.toISOString(),
  }
}

export function toOrganizationListItem(org: Organization, roles: OrgRole[]): OrganizationListItem {
  return {
    ...toOrganizationResponse(org),
    userOrgRoles: roles.map((role) => ({ orgRole: { id: role.id, name: role.name } })),
  }
}

export function toPublicProfileResponse(org: Organization): PublicProfileResponse {
  return {
    id: org.id,
    name: org.name,
    slug: org.slug,
    description: org.description,
    logoUrl: servableLogo(org.logoUrl),
    website: org.website ?? null,
    createdAt: org.createdAt.toISOString(),
  }
}
