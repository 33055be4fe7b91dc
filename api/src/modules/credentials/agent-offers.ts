import { credDefIdForms, schemaIdForms } from '@idplane/common/ledger-ids'
import { InvalidInputError } from '@idplane/common'
import { STATUS_LIST_CONTEXT, type StatusListEntry, type StatusPurpose } from '@idplane/common/bitstring-status-list'
import type {
  AnonCredsOfferRequest,
  JsonLdOffer,
  ResolvedCredentialDefinition,
} from '@idplane/common/agent-contract/admin-api'
import { schemaIdOf, summarizeCredential } from './credential-summary'
import type { CredentialContent } from './issuance-input'
import type { RecordDetails } from './credential.mapper'

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

/** What goes to the agent for one credential, and what the platform records of it. */
export interface OfferPlan {
  format: JsonLdOffer | AnonCredsOfferRequest
  details: RecordDetails
}

export function jsonLdPlan(content: CredentialContent): OfferPlan {
  const offer = jsonLdOffer(content)
  const details = detailsOf(offer)
  const statusPurpose = content.credentialStatus?.statusPurpose
  return { format: offer, details: statusPurpose ? { ...details, statusPurpose } : details }
}

/** The issuer DID a JSON-LD credential names (`issuer` or `issuer.id`). Pure. */
export function issuerOf(credential: Record<string, unknown>): string | undefined {
  const issuer = credential.issuer
  if (typeof issuer === 'string') return issuer
  if (typeof issuer === 'object' && issuer !== null && typeof (issuer as { id?: unknown }).id === 'string')
    return (issuer as { id: string }).id
  return undefined
}

/**
 * The JSON-LD plan carrying its Bitstring Status List entry: the credential gets `credentialStatus` and the status
 * terms' context, the record the list and index. An AnonCreds plan is returned as is. Pure.
 */
export function withStatus(
  plan: OfferPlan,
  allocation: { statusListId: string; index: number; purpose: StatusPurpose },
  entry: StatusListEntry,
): OfferPlan {
  if (!('credential' in plan.format)) return plan
  const credential = plan.format.credential
  const context = credential['@context']
  return {
    format: {
      ...plan.format,
      credential: {
        ...credential,
        '@context': [...(Array.isArray(context) ? context : [context]), STATUS_LIST_CONTEXT],
        credentialStatus: entry,
      },
    },
    details: {
      ...plan.details,
      statusListId: allocation.statusListId,
      statusListIndex: allocation.index,
      statusPurpose: allocation.purpose,
    },
  }
}

/**
 * An AnonCreds offer of content whose attributes matched the schema (issuance-input.ts). The agent sends it in the
 * format Credo uses for the protocol: `indy` over v1, `anoncreds` over v2. `isRequired` is the platform's check only.
 */
export function indyPlan(
  definition: ResolvedCredentialDefinition,
  content: CredentialContent,
  protocolVersion: 'v1' | 'v2',
): OfferPlan {
  const attributes = (content.attributes ?? []).map(({ name, value }) => ({ name, value }))
  return {
    format: {
      protocolVersion,
      credentialFormats: {
        anoncreds: { credentialDefinitionId: definition.credentialDefinitionId, attributes },
      },
    },
    // The record names them in the spec's legacy form, whichever form the agent got (issue 22 item 1).
    details: {
      credentialType: 'INDY',
      credentialDefinitionId:
        credDefIdForms(definition.credentialDefinitionId)?.legacy ?? definition.credentialDefinitionId,
      schemaId: schemaIdForms(definition.schemaId)?.legacy ?? definition.schemaId,
      credentialSummary: {
        types: [definition.schema.name],
        issuer: definition.credentialDefinition.issuerId,
        attributeNames: attributes.map((attribute) => attribute.name),
      },
    },
  }
}

/** An index of a revocation registry given to one offer (RevocationRegistries.allocate). */
export interface OfferRevocation {
  revocationRegistryDefinitionId: string
  index: number
}

/**
 * The AnonCreds plan issuing into a revocation registry at the index allocated for it: the agent gets both, the
 * record keeps both. A JSON-LD plan is returned as is. Pure.
 */
export function withRevocation(plan: OfferPlan, revocation: OfferRevocation): OfferPlan {
  if (!('credentialFormats' in plan.format)) return plan
  const anoncreds = plan.format.credentialFormats.anoncreds
  return {
    format: {
      ...plan.format,
      credentialFormats: {
        anoncreds: {
          ...anoncreds,
          revocationRegistryDefinitionId: revocation.revocationRegistryDefinitionId,
          revocationRegistryIndex: revocation.index,
        },
      },
    },
    details: {
      ...plan.details,
      revocationRegistryId: revocation.revocationRegistryDefinitionId,
      revocationIndex: revocation.index,
    },
  }
}
