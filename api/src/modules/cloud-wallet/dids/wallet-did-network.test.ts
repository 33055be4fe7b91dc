import { InvalidInputError } from '@idplane/common'
import { checkIndyNetwork } from './wallet-dids.service'

describe('checkIndyNetwork (POST /v1/did with method indy)', () => {
  it('accepts no network, the ledger namespace, and the namespace in did:indy style', () => {
    expect(() => checkIndyNetwork(undefined, 'idplane')).not.toThrow()
    expect(() => checkIndyNetwork('idplane', 'idplane')).not.toThrow()
    expect(() => checkIndyNetwork(' did:indy:idplane ', 'idplane')).not.toThrow()
    expect(() => checkIndyNetwork('idplane:test', 'idplane:test')).not.toThrow()
    expect(() => checkIndyNetwork('did:indy:idplane:test', 'idplane:test')).not.toThrow()
  })

  it.each(['bcovrin:testnet', 'sovrin', 'did:indy:sovrin:staging', 'IDPLANE', 'did:sov:idplane', 'idplane:test', ''])(
    'refuses network %j with a 400 naming network',
    (network) => {
      let thrown: unknown
      try {
        checkIndyNetwork(network, 'idplane')
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(InvalidInputError)
      expect((thrown as InvalidInputError).fields).toEqual([expect.objectContaining({ field: 'network' })])
    },
  )
})
