import { EnvReader } from '@idplane/common'
import type { Config } from '../../infra/config'
import { ledgerConfig } from './ledger.config'

function read(env: Record<string, string>) {
  const reader = new EnvReader(env)
  const value = ledgerConfig.read(reader, {} as Config)
  return { value, check: () => reader.assertValid('api') }
}

describe('ledger configuration', () => {
  it('defaults to the idplane namespace, a derived trustee seed and 600 writes a minute per address', () => {
    expect(read({}).value).toEqual({ namespace: 'idplane', writeLimit: { limit: 600, windowSeconds: 60 } })
  })

  it('reads a namespace with a sub-namespace and a 32-character seed', () => {
    const seed = '000000000000000000000000Trustee1'
    expect(read({ LEDGER_NAMESPACE: 'idplane:test', LEDGER_TRUSTEE_SEED: seed }).value).toMatchObject({
      namespace: 'idplane:test',
      trusteeSeed: seed,
    })
  })

  it.each([
    [{ LEDGER_NAMESPACE: 'Idplane' }, 'LEDGER_NAMESPACE'],
    [{ LEDGER_NAMESPACE: 'a:b:c' }, 'LEDGER_NAMESPACE'],
    [{ LEDGER_TRUSTEE_SEED: 'short' }, 'LEDGER_TRUSTEE_SEED'],
    [{ LEDGER_WRITE_RATE_LIMIT_MAX: '0' }, 'LEDGER_WRITE_RATE_LIMIT_MAX'],
    [{ LEDGER_WRITE_RATE_LIMIT_WINDOW_SECONDS: '7200' }, 'LEDGER_WRITE_RATE_LIMIT_WINDOW_SECONDS'],
  ])('refuses %j naming %s', (env, name) => {
    expect(read(env).check).toThrow(name)
  })
})
