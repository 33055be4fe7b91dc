import { boolean, dateTime, nullable, object, oneOf, string, uuid } from '../../../infra/http/data-schema'
import type { CredentialDefinition } from '../credential-definition.entity'
import { CRED_DEF_STATUSES, type CredDefStatus } from '../credential-definition.states'

/**
 * The credential definition record (spec: Credential definition record) with its progress: `status`, and `error`
 * when the key generation failed. Ids in the spec's legacy form, the did:indy forms beside them (issue 22 item 1).
 * `credentialDefinitionId` is set from the creation on when the schema is on the platform ledger (its sequence number
 * is known); for a schema of another registry it is null until the definition is registered.
 */
export interface CredDefResponse {
  id: string
  /** `<issuerDid>:3:CL:<schemaSeqNo>:<tag>`. */
  credentialDefinitionId: string | null
  /** `did:indy:<ns>:<issuerDid>/anoncreds/v0/CLAIM_DEF/<schemaSeqNo>/<tag>`, when the publisher is a did:indy DID. */
  credentialDefinitionDidIndyId: string | null
  tag: string
  /** `<did>:2:<name>:<version>`. */
  schemaLedgerId: string
  /** The schema's did:indy id, when the publisher is a did:indy DID (or the schema was named so). */
  schemaDidIndyId: string | null
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
    credentialDefinitionDidIndyId: definition.credentialDefinitionDidIndyId ?? null,
    tag: definition.tag,
    schemaLedgerId: definition.schemaLedgerId,
    schemaDidIndyId: definition.schemaDidIndyId ?? null,
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
  credentialDefinitionDidIndyId: nullable(string),
  tag: string,
  schemaLedgerId: string,
  schemaDidIndyId: nullable(string),
  revocable: boolean,
  orgId: uuid,
  createdBy: nullable(uuid),
  publisherDid: string,
  createdAt: dateTime,
  updatedAt: dateTime,
  status: oneOf(CRED_DEF_STATUSES),
  error: nullable(string),
})
