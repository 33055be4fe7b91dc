import { ConfigError } from '@idplane/common'

import { loadConfig } from './config'

const valid = { AGENT_API_KEY: 'an-api-key-of-16+', AGENT_WALLET_KEY: 'a-wallet-key-16+chars' }

describe('loadConfig', () => {
  it('applies defaults and picks PGlite without a database URL', () => {
    const config = loadConfig({ ...valid, AGENT_LABEL: 'acme', AGENT_INBOUND_PORT: '9100' })
    expect(config.endpoint).toBe('http://127.0.0.1:9100')
    expect(config.database).toEqual({
      kind: 'pglite',
      dataDir: expect.stringMatching(/data\/agent-acme$/),
      sharedBuffersMb: 8,
    })
    expect(config.events).toBeUndefined()
    expect(config.recordMirrorMb).toBe(64)
  })

  it('reads the test AnonCreds registry directory as an absolute path, absent when unset or empty', () => {
    expect(loadConfig(valid).anonCredsTestRegistryDir).toBeUndefined()
    expect(loadConfig({ ...valid, AGENT_ANONCREDS_TEST_REGISTRY_DIR: '' }).anonCredsTestRegistryDir).toBeUndefined()
    expect(
      loadConfig({ ...valid, AGENT_ANONCREDS_TEST_REGISTRY_DIR: 'tmp/registry' }).anonCredsTestRegistryDir,
    ).toMatch(/^\/.+\/tmp\/registry$/)
  })

  it('reads the ledger URL, by default the event URL origin, and none without either', () => {
    expect(loadConfig(valid).ledgerUrl).toBeUndefined()
    const events = { AGENT_EVENT_URL: 'http://api.internal:5000/v1/internal/agent-events', AGENT_EVENT_TOKEN: 't' }
    expect(loadConfig({ ...valid, ...events }).ledgerUrl).toBe('http://api.internal:5000')
    expect(loadConfig({ ...valid, ...events, AGENT_LEDGER_URL: 'https://ledger.example.com/base/' }).ledgerUrl).toBe(
      'https://ledger.example.com/base',
    )
    expect(() => loadConfig({ ...valid, AGENT_LEDGER_URL: 'ftp://ledger' })).toThrow(/AGENT_LEDGER_URL/)
    expect(() => loadConfig({ ...valid, AGENT_LEDGER_URL: 'not a url' })).toThrow(/AGENT_LEDGER_URL/)
  })

  it('reads the record mirror budget, 0 turning it off', () => {
    expect(loadConfig({ ...valid, AGENT_RECORD_MIRROR_MB: '0' }).recordMirrorMb).toBe(0)
    expect(() => loadConfig({ ...valid, AGENT_RECORD_MIRROR_MB: '-1' })).toThrow(/AGENT_RECORD_MIRROR_MB/)
    expect(() => loadConfig({ ...valid, AGENT_PGLITE_SHARED_BUFFERS_MB: '0' })).toThrow(
      /AGENT_PGLITE_SHARED_BUFFERS_MB/,
    )
    expect(loadConfig(valid).isMemorySaving).toBe(true)
    expect(loadConfig({ ...valid, AGENT_MEMORY_SAVING: 'false' }).isMemorySaving).toBe(false)
    expect(() => loadConfig({ ...valid, AGENT_MEMORY_SAVING: 'maybe' })).toThrow(/AGENT_MEMORY_SAVING/)
  })

  it('reads the outbound attempts and the exchange timeout, with their defaults and bounds', () => {
    expect(loadConfig(valid)).toMatchObject({ outboundMaxAttempts: 100, exchangeTimeoutSeconds: 900 })
    expect(
      loadConfig({ ...valid, AGENT_OUTBOUND_MAX_ATTEMPTS: '3', AGENT_EXCHANGE_TIMEOUT_SECONDS: '0' }),
    ).toMatchObject({ outboundMaxAttempts: 3, exchangeTimeoutSeconds: 0 })
    expect(() => loadConfig({ ...valid, AGENT_OUTBOUND_MAX_ATTEMPTS: '0' })).toThrow(/AGENT_OUTBOUND_MAX_ATTEMPTS/)
    expect(() => loadConfig({ ...valid, AGENT_EXCHANGE_TIMEOUT_SECONDS: '-1' })).toThrow(
      /AGENT_EXCHANGE_TIMEOUT_SECONDS/,
    )
  })

  it('listens on every interface unless AGENT_BIND_HOST names an address', () => {
    expect(loadConfig(valid)).toMatchObject({ bindHost: undefined, exitOnStdinClose: false })
    expect(loadConfig({ ...valid, AGENT_BIND_HOST: '127.0.0.1', AGENT_EXIT_ON_STDIN_CLOSE: 'true' })).toMatchObject({
      bindHost: '127.0.0.1',
      exitOnStdinClose: true,
    })
    expect(() => loadConfig({ ...valid, AGENT_BIND_HOST: 'not an address' })).toThrow(/AGENT_BIND_HOST/)
  })

  it('picks PostgreSQL with a schema when a database URL is set', () => {
    const config = loadConfig({ ...valid, AGENT_DATABASE_URL: 'postgres://u@h/db', AGENT_DATABASE_SCHEMA: 'org_1' })
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@h/db', schema: 'org_1' })
  })

  it('reports every bad variable by name and never its value', () => {
    const source = { AGENT_ADMIN_PORT: 'x', AGENT_DATABASE_URL: 'mysql://secret-value@h', AGENT_EVENT_URL: 'http://e' }
    expect(() => loadConfig(source)).toThrow(ConfigError)
    try {
      loadConfig(source)
    } catch (error) {
      const message = String(error)
      for (const name of [
        'AGENT_ADMIN_PORT',
        'AGENT_API_KEY',
        'AGENT_WALLET_KEY',
        'AGENT_DATABASE_URL',
        'AGENT_EVENT_TOKEN',
      ]) {
        expect(message).toContain(name)
      }
      expect(message).not.toContain('secret-value')
    }
  })
})
