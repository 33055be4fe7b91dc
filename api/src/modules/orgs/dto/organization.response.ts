import type { Organization, OrganizationView } from '../organization.entity'
import type { OrgRole } from '../../memberships/org-role.entity'
import {
  arrayOf,
  boolean,
  dateTime,
  integer,
  nullable,
  object,
  string,
  uuid,
  type Properties,
} from '../../../infra/http/data-schema'
import { ROLE_HOLDING_SCHEMA } from './member.response'
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

export function toOrganizationResponse(org: OrganizationView): OrganizationResponse {
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

const ORGANIZATION_PROPERTIES: Properties<OrganizationResponse> = {
  id: uuid,
  name: string,
  slug: string,
  description: string,
  logoUrl: string,
  website: nullable(string),
  registrationNumber: nullable(string),
  notificationWebhook: nullable(string),
  isPublic: boolean,
  countryId: nullable(integer),
  stateId: nullable(integer),
  cityId: nullable(integer),
  createdAt: dateTime,
  updatedAt: dateTime,
}

/** The organization responses in the OpenAPI document. */
export const ORGANIZATION_SCHEMA = object<OrganizationResponse>('Organization', ORGANIZATION_PROPERTIES)
export const ORGANIZATION_LIST_ITEM_SCHEMA = object<OrganizationListItem>('OrganizationListItem', {
  ...ORGANIZATION_PROPERTIES,
  userOrgRoles: arrayOf(ROLE_HOLDING_SCHEMA),
})
export const PUBLIC_PROFILE_SCHEMA = object<PublicProfileResponse>('PublicProfile', {
  id: uuid,
  name: string,
  slug: string,
  description: string,
  logoUrl: string,
  website: nullable(string),
  createdAt: dateTime,
})
