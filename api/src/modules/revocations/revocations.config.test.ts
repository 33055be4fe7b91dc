import { EnvReader } from '@idplane/common'
import {
  DEFAULT_REVOCATION_REGISTRY_SIZE,
  DEFAULT_REVOCATION_REGISTRY_TIMEOUT_MS,
  revocationsConfig,
} from './revocations.config'

const read = (env: Record<string, string>) => {
  const reader = new EnvReader(env)
  const section = revocationsConfig.read(reader, {} as never)
  return { section, check: () => reader.assertValid('api') }
}

describe('revocation settings', () => {
  it('default to registries of 1,000 made within 120 s', () => {
    expect(read({}).section).toEqual({ registrySize: 1_000, registryTimeoutMs: 120_000, publishTestDelayMs: 0 })
    expect(DEFAULT_REVOCATION_REGISTRY_SIZE).toBe(1_000)
    expect(DEFAULT_REVOCATION_REGISTRY_TIMEOUT_MS).toBe(120_000)
  })

  it('take values in range', () => {
    expect(
      read({
        REVOCATION_REGISTRY_SIZE: '8',
        REVOCATION_REGISTRY_TIMEOUT_MS: '5000',
        REVOCATION_PUBLISH_TEST_DELAY_MS: '3000',
      }).section,
    ).toEqual({ registrySize: 8, registryTimeoutMs: 5_000, publishTestDelayMs: 3_000 })
  })

  it.each([
    ['REVOCATION_REGISTRY_SIZE', '1'],
    ['REVOCATION_REGISTRY_SIZE', '100001'],
    ['REVOCATION_REGISTRY_SIZE', 'many'],
    ['REVOCATION_REGISTRY_TIMEOUT_MS', '999'],
    ['REVOCATION_PUBLISH_TEST_DELAY_MS', '-1'],
  ])('report %s=%s by name', (name, value) => {
    expect(read({ [name]: value }).check).toThrow(new RegExp(name))
  })
})
