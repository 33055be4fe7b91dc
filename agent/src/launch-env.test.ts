import path from 'node:path'

import {
  AGENT_ENV,
  agentPlainEnv,
  agentSecretEnv,
  buildAgentEnv,
  type AgentLaunchSettings,
} from '@idplane/common/agent-contract/launch-env'

import {
  DEFAULT_EXCHANGE_TIMEOUT_SECONDS,
  DEFAULT_OUTBOUND_MAX_ATTEMPTS,
  DEFAULT_PGLITE_SHARED_BUFFERS_MB,
  loadConfig,
} from './config'

const secrets = { apiKey: 'api-key-0123456789abcdef', walletKey: 'wallet-key-0123456789abcdef' }

describe('the launch env of common/agent-contract read by the agent', () => {
  it('round-trips a process-runtime launch on PGlite', () => {
    const settings: AgentLaunchSettings = {
      label: 'Acme wallet',
      adminPort: 8002,
      inboundPort: 9002,
      endpoint: 'https://agents.example.com:9002',
      eventUrl: 'http://127.0.0.1:5000/v1/internal/agent-events',
      eventToken: 'event-token-0123456789',
      dataDir: path.resolve('data/agents/org-1'),
      logLevel: 'debug',
      recordMirrorMb: 8,
      bindHost: '127.0.0.1',
      exitOnStdinClose: true,
      allowPrivateTargets: true,
      ...secrets,
    }
    expect(loadConfig(buildAgentEnv(settings))).toEqual({
      label: 'Acme wallet',
      adminPort: 8002,
      inboundPort: 9002,
      endpoint: 'https://agents.example.com:9002',
      apiKey: secrets.apiKey,
      walletKey: secrets.walletKey,
      database: { kind: 'pglite', dataDir: settings.dataDir, sharedBuffersMb: DEFAULT_PGLITE_SHARED_BUFFERS_MB },
      events: { url: settings.eventUrl, token: settings.eventToken },
      ledgerUrl: 'http://127.0.0.1:5000',
      logLevel: 'debug',
      recordMirrorMb: 8,
      bindHost: '127.0.0.1',
      exitOnStdinClose: true,
      isMemorySaving: true,
      isOpenId4VcEnabled: false,
      allowPrivateTargets: true,
      // Agent-side settings no launcher sets: their defaults.
      outboundMaxAttempts: DEFAULT_OUTBOUND_MAX_ATTEMPTS,
      exchangeTimeoutSeconds: DEFAULT_EXCHANGE_TIMEOUT_SECONDS,
    })
  })

  it('round-trips the OpenID4VC switch, off unless set', () => {
    const base = { label: 'acme', adminPort: 8003, inboundPort: 9003, endpoint: 'http://127.0.0.1:9003', ...secrets }
    expect(buildAgentEnv({ ...base, openId4Vc: true })[AGENT_ENV.openId4Vc]).toBe('true')
    expect(loadConfig(buildAgentEnv({ ...base, openId4Vc: true })).isOpenId4VcEnabled).toBe(true)
    expect(buildAgentEnv(base)).not.toHaveProperty(AGENT_ENV.openId4Vc)
    expect(loadConfig(buildAgentEnv(base)).isOpenId4VcEnabled).toBe(false)
  })

  it('round-trips a launch on PostgreSQL with its schema', () => {
    const config = loadConfig(
      buildAgentEnv({
        label: 'acme',
        adminPort: 8003,
        inboundPort: 9003,
        endpoint: 'http://127.0.0.1:9003',
        databaseUrl: 'postgresql://postgres@127.0.0.1:5432/test',
        databaseSchema: 'agent_0123456789ab',
        ledgerUrl: 'http://api.idplane.svc:5000',
        ...secrets,
      }),
    )
    expect(config.ledgerUrl).toBe('http://api.idplane.svc:5000')
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgresql://postgres@127.0.0.1:5432/test',
      schema: 'agent_0123456789ab',
    })
    expect(config.events).toBeUndefined()
    // Production's default: private, loopback and metadata targets refused.
    expect(config.allowPrivateTargets).toBe(false)
  })

  it('splits into the secret part (a Secret) and the plain part (a pod spec), leaving absent values out', () => {
    const settings = {
      label: 'acme',
      adminPort: 8002,
      inboundPort: 9002,
      endpoint: 'http://x:9002',
      eventToken: 't'.repeat(20),
      ...secrets,
    }
    expect(Object.keys(agentSecretEnv(settings)).sort()).toEqual(
      [AGENT_ENV.apiKey, AGENT_ENV.eventToken, AGENT_ENV.walletKey].sort(),
    )
    expect(Object.keys(agentPlainEnv(settings)).sort()).toEqual(
      [AGENT_ENV.adminPort, AGENT_ENV.endpoint, AGENT_ENV.inboundPort, AGENT_ENV.label].sort(),
    )
    expect(buildAgentEnv(settings)).toEqual({ ...agentPlainEnv(settings), ...agentSecretEnv(settings) })
  })
})
