import type { OrgDid } from '../org-did.entity'
import { boolean, dateTime, object, string, uuid } from '../../../infra/http/data-schema'

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

/** OrgDidResponse in the OpenAPI document. */
export const ORG_DID_SCHEMA = object<OrgDidResponse>('OrgDid', {
  id: uuid,
  did: string,
  isPrimaryDid: boolean,
  createdAt: dateTime,
})
