import path from 'node:path'
import { loadConfig } from './config'

describe('loadConfig: quotas and the agents bind host', () => {
  it('defaults to 10 organizations per user, 20 process agents and loopback for agents', () => {
    const config = loadConfig({})
    expect(config.quotas).toEqual({ orgsPerUser: 10, processAgents: 20 })
    expect(config.agents.bindHost).toBe('127.0.0.1')
  })

  it('takes 0 as no limit and binds agents where AGENT_HOST points unless AGENT_BIND_HOST says otherwise', () => {
    expect(loadConfig({ LIMIT_ORGS_PER_USER: '0', LIMIT_PROCESS_AGENTS: '0' }).quotas).toEqual({
      orgsPerUser: 0,
      processAgents: 0,
    })
    expect(loadConfig({ AGENT_HOST: '10.0.0.5' }).agents.bindHost).toBe('10.0.0.5')
    expect(loadConfig({ AGENT_HOST: 'agents.internal' }).agents.bindHost).toBe('127.0.0.1')
    expect(loadConfig({ AGENT_BIND_HOST: '0.0.0.0' }).agents.bindHost).toBe('0.0.0.0')
  })

  it('reports bad values by name', () => {
    expect(() => loadConfig({ LIMIT_ORGS_PER_USER: '-1' })).toThrow(/LIMIT_ORGS_PER_USER/)
    expect(() => loadConfig({ LIMIT_PROCESS_AGENTS: 'many' })).toThrow(/LIMIT_PROCESS_AGENTS/)
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
