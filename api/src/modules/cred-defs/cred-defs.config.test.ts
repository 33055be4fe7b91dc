import { EnvReader } from '@idplane/common'
import { credDefsConfig, DEFAULT_CRED_DEF_CONCURRENCY, DEFAULT_CRED_DEF_JOB_TIMEOUT_MS } from './cred-defs.config'

const read = (env: Record<string, string>) => {
  const reader = new EnvReader(env)
  const section = credDefsConfig.read(reader, {} as never)
  return { section, check: () => reader.assertValid('api') }
}

describe('credential definition settings', () => {
  it('default to a 120 s key-generation wait and 2 jobs at once', () => {
    expect(read({}).section).toEqual({ jobTimeoutMs: DEFAULT_CRED_DEF_JOB_TIMEOUT_MS, concurrency: 2 })
    expect(DEFAULT_CRED_DEF_JOB_TIMEOUT_MS).toBe(120_000)
    expect(DEFAULT_CRED_DEF_CONCURRENCY).toBe(2)
  })

  it('take values in range', () => {
    expect(read({ CRED_DEF_JOB_TIMEOUT_MS: '5000', CRED_DEF_CONCURRENCY: '8' }).section).toEqual({
      jobTimeoutMs: 5_000,
      concurrency: 8,
    })
  })

  it.each([
    ['CRED_DEF_JOB_TIMEOUT_MS', '999'],
    ['CRED_DEF_JOB_TIMEOUT_MS', 'soon'],
    ['CRED_DEF_CONCURRENCY', '0'],
    ['CRED_DEF_CONCURRENCY', '51'],
  ])('report %s=%s by name', (name, value) => {
    expect(read({ [name]: value }).check).toThrow(new RegExp(name))
  })
})
