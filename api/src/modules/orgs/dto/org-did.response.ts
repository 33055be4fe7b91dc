import type { OrgDid } from '../org-did.entity'

/** Spec: Resources, Organization DID record. */
export interface OrgDidResponse {
  id: string
  did: string
  isPrimaryDid: boolean
  createdAt: string
}

export function toOrgDidResponse(record: OrgDid): OrgDidResponse {
  return {
    id: record.id,
    did: record.did,
    isPrimaryDid: record.isPrimaryDid,
    createdAt: record.createdAt.toISOString(),
  }
}
