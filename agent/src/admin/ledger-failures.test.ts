import { ConflictError, InvalidInputError, NotImplementedError, UpstreamError } from '@idplane/common'

import { LedgerNotConfiguredError, LedgerUnavailableError } from '../ledger/ledger-client'
import { ledgerFailure } from './ledger-failures'

describe('ledgerFailure', () => {
  it.each([
    ['schema', 'already registered on the ledger: ... (HTTP 409): taken', ConflictError],
    ['DID', 'Could not write the NYM: The ledger refused POST /v1/ledger/nyms (HTTP 409): other verkey', ConflictError],
    ['DID', `Could not read the ledger namespace: ${new LedgerNotConfiguredError().message}`, NotImplementedError],
    [
      'DID',
      `Could not write the NYM: ${new LedgerUnavailableError('The ledger did not answer POST x').message}`,
      UpstreamError,
    ],
    ['schema', 'The ledger refused POST /v1/ledger/transactions (HTTP 503): busy', UpstreamError],
    ['schema', 'VGekVpqihCAwQWMtQ7gNTV is not a did:indy DID this agent created', InvalidInputError],
    ['schema', 'The ledger refused POST /v1/ledger/transactions (HTTP 400): signature', InvalidInputError],
  ])('maps a failed %s registration "%s" to %p', (what, reason, type) => {
    const error = ledgerFailure(what, reason)
    expect(error).toBeInstanceOf(type)
    expect(error.message).toContain(reason)
  })
})
