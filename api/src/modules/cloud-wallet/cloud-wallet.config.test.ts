import { EnvReader } from '@idplane/common'
import {
  cloudWalletConfig,
  DEFAULT_BASE_AGENT_WAIT_MS,
  DEFAULT_WALLET_CONCURRENCY,
  DEFAULT_WALLET_QUEUE_MAX,
} from './cloud-wallet.config'

const read = (env: Record<string, string>) => {
  const reader = new EnvReader(env)
  const section = cloudWalletConfig.read(reader, {} as never)
  return { section, check: () => reader.assertValid('api') }
}

describe('cloud-wallet settings', () => {
  it('default to the managed base agent (no setting needed), a 30 s wait for it and 16 holders at a time', () => {
    const { section, check } = read({})
    expect(section).toEqual({
      baseAgent: 'managed',
      baseAgentWaitMs: DEFAULT_BASE_AGENT_WAIT_MS,
      concurrency: DEFAULT_WALLET_CONCURRENCY,
      queueMax: DEFAULT_WALLET_QUEUE_MAX,
    })
    expect([DEFAULT_BASE_AGENT_WAIT_MS, DEFAULT_WALLET_CONCURRENCY, DEFAULT_WALLET_QUEUE_MAX]).toEqual([
      30_000, 16, 2000,
    ])
    expect(check).not.toThrow()
  })

  it('take an external base agent, another wait and other turns', () => {
    const { section, check } = read({
      CLOUD_WALLET_BASE_AGENT: 'external',
      CLOUD_WALLET_BASE_AGENT_WAIT_MS: '0',
      CLOUD_WALLET_CONCURRENCY: '1',
      CLOUD_WALLET_QUEUE_MAX: '0',
    })
    expect(section).toEqual({ baseAgent: 'external', baseAgentWaitMs: 0, concurrency: 1, queueMax: 0 })
    expect(check).not.toThrow()
  })

  it.each([
    ['CLOUD_WALLET_BASE_AGENT', 'auto', /CLOUD_WALLET_BASE_AGENT: must be one of managed, external/],
    ['CLOUD_WALLET_BASE_AGENT_WAIT_MS', '-1', /CLOUD_WALLET_BASE_AGENT_WAIT_MS: must be at least 0/],
    ['CLOUD_WALLET_BASE_AGENT_WAIT_MS', '300001', /CLOUD_WALLET_BASE_AGENT_WAIT_MS: must be at most 300000/],
    ['CLOUD_WALLET_BASE_AGENT_WAIT_MS', '5s', /CLOUD_WALLET_BASE_AGENT_WAIT_MS: must be a whole number/],
    ['CLOUD_WALLET_CONCURRENCY', '0', /CLOUD_WALLET_CONCURRENCY: must be at least 1/],
    ['CLOUD_WALLET_QUEUE_MAX', '-1', /CLOUD_WALLET_QUEUE_MAX: must be at least 0/],
  ])('refuse %s=%p by name', (name, value, message) => {
    expect(read({ [name]: value }).check).toThrow(message)
  })
})
