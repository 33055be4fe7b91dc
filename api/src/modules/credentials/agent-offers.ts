import { InvalidInputError } from '@idplane/common'
import type { CredentialRecordJson, JsonLdOffer } from '@idplane/common/agent-contract/admin-api'
import { schemaIdOf, summarizeCredential } from './credential-summary'
import type { CredentialContent } from './issuance-input'
import type { AgentExchangeReport, RecordDetails } from './issuance-records.service'

/** The agent's answer about a new exchange, as a report the records apply. */
export function reportOfAgentRecord(record: CredentialRecordJson): AgentExchangeReport {
  const createdAt = new Date(record.createdAt)
  return {
    credentialRecordId: record.id,
    state: record.state,
    at: record.updatedAt ? new Date(record.updatedAt) : createdAt,
    createdAt,
    role: record.role,
    connectionId: record.connectionId ?? null,
    threadId: record.threadId,
    protocolVersion: record.protocolVersion,
  }
}

export function detailsOf(offer: JsonLdOffer): RecordDetails {
  return {
    credentialType: 'JSONLD',
    credentialSummary: summarizeCredential(offer.credential),
    schemaId: schemaIdOf(offer.credential),
  }
}

/** The JSON-LD offer of content the input checks passed. */
export function jsonLdOffer(content: CredentialContent): JsonLdOffer {
  if (!content.credential || !content.options) throw new InvalidInputError('credential and options are required')
  return { credential: content.credential, options: content.options }
}
