import path from 'node:path'
import { loadConfig } from './config'

// The quotas (LIMIT_ORGS_PER_USER, LIMIT_PROCESS_AGENTS) are the orgs and agents modules' settings now: their
// tests are modules/orgs/orgs.config.test.ts and modules/agents/agents.config.test.ts.
describe('loadConfig: the agents bind host', () => {
  it('defaults to loopback for agents', () => {
    const config = loadConfig({})
    expect(config.agents.bindHost).toBe('127.0.0.1')
  })

  it('binds agents where AGENT_HOST points unless AGENT_BIND_HOST says otherwise', () => {
    expect(loadConfig({ AGENT_HOST: '10.0.0.5' }).agents.bindHost).toBe('10.0.0.5')
    expect(loadConfig({ AGENT_HOST: 'agents.internal' }).agents.bindHost).toBe('127.0.0.1')
    expect(loadConfig({ AGENT_BIND_HOST: '0.0.0.0' }).agents.bindHost).toBe('0.0.0.0')
  })

  it('reports bad values by name', () => {
    expect(() => loadConfig({ AGENT_BIND_HOST: 'every interface' })).toThrow(/AGENT_BIND_HOST/)
  })
})

describe('loadConfig: the agents test AnonCreds registry (TEST-ONLY)', () => {
  it('is unset by default and an absolute directory when given', () => {
    expect(loadConfig({}).agents.anonCredsTestRegistryDir).toBeUndefined()
    expect(loadConfig({ AGENT_ANONCREDS_TEST_REGISTRY_DIR: '' }).agents.anonCredsTestRegistryDir).toBeUndefined()
    expect(loadConfig({ AGENT_ANONCREDS_TEST_REGISTRY_DIR: '/tmp/registry' }).agents.anonCredsTestRegistryDir).toBe(
      '/tmp/registry',
    )
    expect(loadConfig({ AGENT_ANONCREDS_TEST_REGISTRY_DIR: 'relative/dir' }).agents.anonCredsTestRegistryDir).toBe(
      path.resolve('relative/dir'),
    )
  })
})

describe('loadConfig: private targets of outgoing calls (NETWORK_ALLOW_PRIVATE_TARGETS)', () => {
  it('refuses them by default, as production must', () => {
    expect(loadConfig({}).network.allowPrivateTargets).toBe(false)
  })

  it('reads NETWORK_ALLOW_PRIVATE_TARGETS, and WEBHOOK_ALLOW_PRIVATE_TARGETS as its alias', () => {
    expect(loadConfig({ NETWORK_ALLOW_PRIVATE_TARGETS: 'true' }).network.allowPrivateTargets).toBe(true)
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).network.allowPrivateTargets).toBe(true)
    expect(
      loadConfig({ NETWORK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' }).network
        .allowPrivateTargets,
    ).toBe(true)
  })

  it('refuses the two names set to different values', () => {
    expect(() => loadConfig({ NETWORK_ALLOW_PRIVATE_TARGETS: 'false', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_TARGETS: must agree with NETWORK_ALLOW_PRIVATE_TARGETS/,
    )
  })
})

describe('loadConfig: agent tuning passed on to process-runtime agents', () => {
  it('takes the tuning settings that are set, and nothing else', () => {
    expect(loadConfig({}).agents.tuningEnv).toEqual({})
    expect(
      loadConfig({ AGENT_EXCHANGE_TIMEOUT_SECONDS: '120', AGENT_OUTBOUND_MAX_ATTEMPTS: '3', AGENT_LABEL: 'not tuning' })
        .agents.tuningEnv,
    ).toEqual({ AGENT_EXCHANGE_TIMEOUT_SECONDS: '120', AGENT_OUTBOUND_MAX_ATTEMPTS: '3' })
  })
})

describe('loadConfig: idle connections (API_KEEP_ALIVE_TIMEOUT_SECONDS)', () => {
  it('keeps them longer than an ingress keeps its own by default, and as set otherwise', () => {
    expect(loadConfig({}).http.keepAliveTimeoutMs).toBe(75_000)
    expect(loadConfig({ API_KEEP_ALIVE_TIMEOUT_SECONDS: '650' }).http.keepAliveTimeoutMs).toBe(650_000)
  })

  it('reports values out of range by name', () => {
    expect(() => loadConfig({ API_KEEP_ALIVE_TIMEOUT_SECONDS: '0' })).toThrow(/API_KEEP_ALIVE_TIMEOUT_SECONDS/)
    expect(() => loadConfig({ API_KEEP_ALIVE_TIMEOUT_SECONDS: 'long' })).toThrow(/API_KEEP_ALIVE_TIMEOUT_SECONDS/)
  })
})

describe('loadConfig: spare agent processes (AGENT_SPARES)', () => {
  it('keeps one by default, none or several as set', () => {
    expect(loadConfig({}).agents.spares).toBe(1)
    expect(loadConfig({ AGENT_SPARES: '0' }).agents.spares).toBe(0)
    expect(loadConfig({ AGENT_SPARES: '3' }).agents.spares).toBe(3)
  })

  it('reports values out of range by name', () => {
    expect(() => loadConfig({ AGENT_SPARES: '9' })).toThrow(/AGENT_SPARES/)
    expect(() => loadConfig({ AGENT_SPARES: '-1' })).toThrow(/AGENT_SPARES/)
    expect(() => loadConfig({ AGENT_SPARES: 'one' })).toThrow(/AGENT_SPARES/)
  })
})
