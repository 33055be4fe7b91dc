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
import type { AnchorCheck, ChainPosition } from './ledger-anchor'
import type { LedgerCheck } from './ledger-check'
import type { ReferenceCheck } from './ledger-references'
import type {
  CredDefView,
  DidState,
  LedgerInfo,
  RevocationStatusListView,
  RevRegDefView,
  SchemaView,
  TransactionView,
} from './ledger-views'

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
  lastSeqNo: optional(integer),
  prevHash: string,
  hash: string,
  txnTime: string,
  id: optional(string),
  didIndyId: optional(string),
})

const CHAIN_POSITION = object<ChainPosition>(undefined, { seqNo: integer, hash: string })

const ANCHOR_CHECK_SCHEMA = object<AnchorCheck>('LedgerAnchorCheck', {
  isValid: boolean,
  anchored: optional(CHAIN_POSITION),
  head: optional(CHAIN_POSITION),
  reason: optional(string),
})

const REFERENCE_CHECK_SCHEMA = object<ReferenceCheck>('LedgerReferenceCheck', {
  isValid: boolean,
  checked: integer,
  elsewhere: integer,
  danglingCount: integer,
  dangling: arrayOf(object(undefined, { kind: oneOf(['schema', 'credentialDefinition'] as const), ledgerId: string })),
})

export const CHAIN_CHECK_SCHEMA = object<LedgerCheck>('LedgerChainCheck', {
  isValid: boolean,
  checked: integer,
  firstInvalid: optional(object(undefined, { seqNo: integer, reason: string })),
  anchor: optional(ANCHOR_CHECK_SCHEMA),
  references: optional(REFERENCE_CHECK_SCHEMA),
})

export const DID_STATE_SCHEMA = object<DidState>('LedgerDidState', { did: string, lastSeqNo: integer })

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

export const REV_REG_DEF_VIEW_SCHEMA = object<RevRegDefView>('LedgerRevocationRegistryDefinition', {
  revocationRegistryDefinitionId: string,
  revocationRegistryDefinition: object(undefined, {
    issuerId: string,
    revocDefType: oneOf(['CL_ACCUM'] as const),
    tag: string,
    credDefId: string,
    value: object(undefined, {
      maxCredNum: integer,
      publicKeys: object(undefined, { accumKey: object(undefined, { z: string }) }),
      tailsHash: string,
      tailsLocation: string,
    }),
  }),
  seqNo: integer,
  txnTime: string,
})

export const REVOCATION_STATUS_LIST_VIEW_SCHEMA = object<RevocationStatusListView>('LedgerRevocationStatusList', {
  revocationStatusList: object(undefined, {
    issuerId: string,
    revRegDefId: string,
    revocationList: arrayOf(integer),
    currentAccumulator: string,
    timestamp: integer,
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
