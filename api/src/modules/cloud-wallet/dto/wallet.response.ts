import type { SchemaObject } from 'openapi3-ts'
import type {
  BasicMessageRecordJson,
  ConnectionRecordJson,
  CreatedDid,
  CreatedInvitation,
  CredentialRecordJson,
  DidListEntry,
  ProofRecordJson,
  ReceivedInvitation,
} from '@idplane/common/agent-contract/admin-api'
import { dateTime, nullable, object, string, unchecked, uuid, arrayOf, boolean } from '../../../infra/http/data-schema'
import type { CloudWallet } from '../cloud-wallet.entity'

export interface CloudWalletResponse {
  id: string
  tenantId: string
  label: string
  email: string
  connectionImageUrl: string | null
  createdAt: string
}

export const CLOUD_WALLET_SCHEMA = object<CloudWalletResponse>('CloudWallet', {
  id: uuid,
  tenantId: string,
  label: string,
  email: string,
  connectionImageUrl: nullable(string),
  createdAt: dateTime,
})

export function toCloudWalletResponse(wallet: CloudWallet): CloudWalletResponse {
  return {
    id: wallet.id,
    tenantId: wallet.tenantId,
    label: wallet.label,
    email: wallet.email,
    connectionImageUrl: wallet.connectionImageUrl ?? null,
    createdAt: wallet.createdAt.toISOString(),
  }
}

/** What the base agent answered when it was configured: its GET /agent facts. */
export interface BaseWalletResponse {
  agentEndpoint: string
  label: string
  endpoints: string[]
  isInitialized: boolean
}

export const BASE_WALLET_SCHEMA = object<BaseWalletResponse>('BaseWallet', {
  agentEndpoint: string,
  label: string,
  endpoints: arrayOf(string),
  isInitialized: boolean,
})

/** A Credo record as the wallet's agent wrote it (open by design: the fields depend on the record type). */
function agentRecord(required: string[], properties: Record<string, SchemaObject>): SchemaObject {
  return { type: 'object', additionalProperties: true, required, properties }
}

const text: SchemaObject = { type: 'string' }
const exchangeFields = { id: text, state: text, role: text, threadId: text, connectionId: text, createdAt: text }

export const WALLET_CONNECTION_SCHEMA = unchecked<ConnectionRecordJson>(
  'WalletConnectionRecord',
  agentRecord(['id', 'state'], { id: text, state: text, role: text, theirLabel: text, outOfBandId: text }),
)
export const WALLET_CREDENTIAL_SCHEMA = unchecked<CredentialRecordJson>(
  'WalletCredentialRecord',
  agentRecord(['id', 'state'], exchangeFields),
)
export const WALLET_PROOF_SCHEMA = unchecked<ProofRecordJson>(
  'WalletProofRecord',
  agentRecord(['id', 'state'], exchangeFields),
)
/**
 * The format data of a holder's exchange (Credo's getFormatData: offer, request, credential or presentation per
 * format): what an offer contains and what a proof request asks for, shown before the holder answers.
 */
export const WALLET_FORMAT_DATA_SCHEMA = unchecked<Record<string, unknown>>('WalletFormatData', {
  type: 'object',
  additionalProperties: true,
})
export const WALLET_BASIC_MESSAGE_SCHEMA = unchecked<BasicMessageRecordJson>(
  'WalletBasicMessageRecord',
  agentRecord(['id', 'content'], { id: text, content: text, sentTime: text, connectionId: text, role: text }),
)
export const WALLET_INVITATION_SCHEMA = unchecked<CreatedInvitation>(
  'WalletInvitation',
  agentRecord(['invitationUrl', 'invitation', 'outOfBandRecord'], {
    invitationUrl: text,
    invitation: { type: 'object', additionalProperties: true },
    outOfBandRecord: { type: 'object', additionalProperties: true },
  }),
)
export const WALLET_RECEIVED_INVITATION_SCHEMA = unchecked<ReceivedInvitation>(
  'WalletReceivedInvitation',
  agentRecord(['outOfBandRecord'], {
    outOfBandRecord: { type: 'object', additionalProperties: true },
    connectionRecord: { type: 'object', additionalProperties: true },
  }),
)
export const WALLET_CREATED_DID_SCHEMA = unchecked<CreatedDid>(
  'WalletCreatedDid',
  agentRecord(['did'], { did: text, didDocument: { type: 'object', additionalProperties: true } }),
)
export const WALLET_DID_SCHEMA = unchecked<DidListEntry>(
  'WalletDid',
  agentRecord(['did', 'method'], { did: text, method: text, createdAt: text }),
)
