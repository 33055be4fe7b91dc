import type { SchemaObject } from 'openapi3-ts'
import { LEDGER_TRANSACTION_TYPES } from '@idplane/common/agent-contract/ledger'
import {
  arrayOf,
  boolean,
  integer,
  nullable,
  object,
  oneOf,
  optional,
  string,
  unchecked,
  type DataSchema,
} from '../../infra/http/data-schema'
import type { ChainCheck } from './ledger-chain'
import type { CredDefView, LedgerInfo, SchemaView, TransactionView } from './ledger.service'

const anyObject: SchemaObject = { type: 'object', additionalProperties: true }

export const LEDGER_INFO_SCHEMA = object<LedgerInfo>('LedgerInfo', {
  namespace: string,
  trusteeDid: string,
  genesisHash: string,
  head: object(undefined, { seqNo: integer, hash: string }),
})

export const TRANSACTION_SCHEMA = object<TransactionView>('LedgerTransaction', {
  seqNo: integer,
  type: oneOf(LEDGER_TRANSACTION_TYPES),
  authorDid: string,
  objectId: nullable(string),
  payload: unchecked('LedgerPayload', anyObject),
  signature: string,
  prevHash: string,
  hash: string,
  txnTime: string,
  id: optional(string),
  didIndyId: optional(string),
})

export const CHAIN_CHECK_SCHEMA = object<ChainCheck>('LedgerChainCheck', {
  isValid: boolean,
  checked: integer,
  firstInvalid: optional(object(undefined, { seqNo: integer, reason: string })),
})

export const SCHEMA_VIEW_SCHEMA = object<SchemaView>('LedgerSchema', {
  schemaId: string,
  schema: object(undefined, { issuerId: string, name: string, version: string, attrNames: arrayOf(string) }),
  seqNo: integer,
  txnTime: string,
})

export const CRED_DEF_VIEW_SCHEMA = object<CredDefView>('LedgerCredentialDefinition', {
  credentialDefinitionId: string,
  credentialDefinition: object(undefined, {
    issuerId: string,
    schemaId: string,
    type: oneOf(['CL'] as const),
    tag: string,
    value: unchecked('LedgerCredDefValue', anyObject),
  }),
  seqNo: integer,
  txnTime: string,
})

export const DID_RESOLUTION_SCHEMA: DataSchema<{
  didDocument: Record<string, unknown>
  didDocumentMetadata: Record<string, unknown>
}> = object('LedgerDidResolution', {
  didDocument: unchecked('LedgerDidDocument', anyObject),
  didDocumentMetadata: unchecked('LedgerDidDocumentMetadata', anyObject),
})
