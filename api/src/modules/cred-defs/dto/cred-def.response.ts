import { boolean, dateTime, nullable, object, oneOf, string, uuid } from '../../../infra/http/data-schema'
import { CRED_DEF_STATUSES, type CredDefStatus, type CredentialDefinition } from '../credential-definition.entity'

/**
 * The credential definition record (spec: Credential definition record) with its progress: `status`, and `error`
 * when the key generation failed. `credentialDefinitionId` is null until the definition is registered.
 */
export interface CredDefResponse {
  id: string
  credentialDefinitionId: string | null
  tag: string
  schemaLedgerId: string
  revocable: boolean
  orgId: string
  createdBy: string | null
  publisherDid: string
  createdAt: string
  updatedAt: string
  status: CredDefStatus
  error: string | null
}

export function toCredDefResponse(definition: CredentialDefinition): CredDefResponse {
  return {
    id: definition.id,
    credentialDefinitionId: definition.credentialDefinitionId ?? null,
    tag: definition.tag,
    schemaLedgerId: definition.schemaLedgerId,
    revocable: definition.revocable,
    orgId: definition.organization.id,
    createdBy: definition.createdBy ?? null,
    publisherDid: definition.publisherDid,
    createdAt: definition.createdAt.toISOString(),
    updatedAt: definition.updatedAt.toISOString(),
    status: definition.status,
    error: definition.error ?? null,
  }
}

export const CRED_DEF_SCHEMA = object<CredDefResponse>('CredentialDefinition', {
  id: uuid,
  credentialDefinitionId: nullable(string),
  tag: string,
  schemaLedgerId: string,
  revocable: boolean,
  orgId: uuid,
  createdBy: nullable(uuid),
  publisherDid: string,
  createdAt: dateTime,
  updatedAt: dateTime,
  status: oneOf(CRED_DEF_STATUSES),
  error: nullable(string),
})
