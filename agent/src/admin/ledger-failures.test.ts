import { ConflictError, InvalidInputError, NotImplementedError, UpstreamError } from '@idplane/common'

import { LedgerNotConfiguredError, LedgerUnavailableError } from '../ledger/ledger-client'
import { isLedgerUnavailable, ledgerFailure } from './ledger-failures'

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

  it('says what failed when reading, and tells an unavailable ledger from other reasons', () => {
    const reason = new LedgerUnavailableError('The ledger did not answer GET /v1/ledger/schemas/x').message
    expect(ledgerFailure('schema', reason, 'read')).toMatchObject({ message: `Could not read the schema: ${reason}` })
    expect(isLedgerUnavailable(reason)).toBe(true)
    expect(isLedgerUnavailable(new LedgerNotConfiguredError().message)).toBe(true)
    expect(isLedgerUnavailable('The ledger refused GET /v1/ledger/schemas/x (HTTP 404): absent')).toBe(false)
  })
})
