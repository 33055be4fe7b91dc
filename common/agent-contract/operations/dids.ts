import type {
  CreateDidRequest,
  CreatedDid,
  CredentialCheck,
  DidListEntry,
  SignCredentialRequest,
  VerifyCredentialRequest,
} from '../admin-api'
import { defineOperation, operationsByName, shape } from '../operation'

/** DIDs of the wallet, and W3C JSON-LD signing and verification outside any exchange. */
export const DID_OPERATIONS = operationsByName({
  createDid: defineOperation({
    name: 'createDid',
    method: 'POST',
    path: '/dids',
    message: 'DID created',
    body: shape<CreateDidRequest>(),
    result: shape<CreatedDid>(),
    summary:
      'Creates a did:key, did:peer, did:web or did:indy (on the platform ledger); with `did` and its key (seed or ' +
      'privatekey), imports that DID',
    errors: {
      400: "did:web without a domain, an endpoint that is no URL, a DID the ledger refuses, or a `did` to import that is not the key's (or comes without a key)",
      409: 'the key (the same seed) belongs to another tenant, or the DID is registered differently',
      501: 'did:indy on an agent without a ledger',
      502: 'the ledger cannot be reached, or the DID could not be created',
    },
  }),
  listDids: defineOperation({
    name: 'listDids',
    method: 'GET',
    path: '/dids',
    result: shape<DidListEntry[]>(),
    summary: 'The DIDs this wallet created',
  }),
  signCredential: defineOperation({
    name: 'signCredential',
    method: 'POST',
    path: '/w3c/sign',
    message: 'Credential signed',
    body: shape<SignCredentialRequest>(),
    result: shape<Record<string, unknown>>(),
    summary: 'Signs a W3C JSON-LD credential with a key of this wallet',
    errors: { 400: 'the credential is malformed, or its verification method cannot be resolved or used' },
  }),
  verifyCredential: defineOperation({
    name: 'verifyCredential',
    method: 'POST',
    path: '/w3c/verify',
    message: 'Credential checked',
    body: shape<VerifyCredentialRequest>(),
    result: shape<CredentialCheck>(),
    summary: 'Verifies a signed W3C JSON-LD credential',
    errors: { 400: 'the credential is malformed or cannot be checked' },
  }),
})
