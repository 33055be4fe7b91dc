import type {
  AcceptOfferRequest,
  CredentialRecordJson,
  ExchangeQuery,
  OfferCredentialRequest,
  OobCredentialOffer,
  OobOfferCredentialRequest,
} from '../admin-api'
import { defineOperation, operationsByName, shape } from '../operation'

/** Issue Credential v2 (W3C JSON-LD, AnonCreds) and v1 (AnonCreds), issuer and holder side. */
export const CREDENTIAL_OPERATIONS = operationsByName({
  offerCredential: defineOperation({
    name: 'offerCredential',
    method: 'POST',
    path: '/credentials/offer',
    message: 'Credential offered',
    body: shape<OfferCredentialRequest>(),
    result: shape<CredentialRecordJson>(),
    summary: 'Offers a credential over a connection',
    errors: {
      400: 'an offer that cannot be made or signed (its format service refused it)',
      404: 'no such connection, or an unknown credential definition',
      409: 'the connection is not ready',
      502: 'the offer could not be delivered to the other agent',
    },
  }),
  offerCredentialOutOfBand: defineOperation({
    name: 'offerCredentialOutOfBand',
    method: 'POST',
    path: '/credentials/oob/offer',
    message: 'Out-of-band credential offer created',
    body: shape<OobOfferCredentialRequest>(),
    result: shape<OobCredentialOffer>(),
    summary: 'An offer inside an out-of-band invitation',
    errors: {
      400: 'an offer that cannot be made or signed (its format service refused it)',
      404: 'an unknown credential definition',
    },
  }),
  acceptCredentialOffer: defineOperation({
    name: 'acceptCredentialOffer',
    method: 'POST',
    path: '/credentials/accept-offer',
    message: 'Offer accepted',
    body: shape<AcceptOfferRequest>(),
    result: shape<CredentialRecordJson>(),
    summary: 'Holder: accepts a received offer',
    errors: {
      404: 'no such credential record',
      409: 'the record is in another state, or the offer cannot be accepted as it stands',
      502: 'the request could not be delivered to the other agent',
    },
  }),
  listCredentials: defineOperation({
    name: 'listCredentials',
    method: 'GET',
    path: '/credentials',
    query: shape<ExchangeQuery>(),
    result: shape<CredentialRecordJson[]>(),
    summary: 'The credential exchange records, filtered',
  }),
  getCredential: defineOperation({
    name: 'getCredential',
    method: 'GET',
    path: '/credentials/:credentialRecordId',
    result: shape<CredentialRecordJson>(),
    summary: 'One credential exchange record',
    errors: { 404: 'no such credential record' },
  }),
  deleteCredential: defineOperation({
    name: 'deleteCredential',
    method: 'DELETE',
    path: '/credentials/:credentialRecordId',
    message: 'Credential record deleted',
    result: shape<{ id: string }>(),
    summary: 'Removes the exchange record (a stored credential stays in the wallet)',
    errors: { 404: 'no such credential record' },
  }),
  getCredentialFormData: defineOperation({
    name: 'getCredentialFormData',
    method: 'GET',
    path: '/credentials/:credentialRecordId/form-data',
    result: shape<Record<string, unknown>>(),
    summary: "The exchange's messages in each format",
    errors: { 404: 'no such credential record', 409: 'the format data cannot be read from the record' },
  }),
})
