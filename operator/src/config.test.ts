import { ConfigError } from '@idplane/common'
import { loadConfig } from './config'

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ POD_NAME: 'operator-0', POD_NAMESPACE: 'idplane' })
    expect(config).toMatchObject({
      watchNamespace: undefined,
      operatorNamespace: 'idplane',
      identity: 'operator-0',
      lease: {
        name: 'idplane-operator',
        namespace: 'idplane',
        durationSeconds: 15,
        renewDeadlineMs: 10_000,
        retryPeriodMs: 2_000,
      },
      agentPoll: { attempts: 6, intervalMs: 10_000, urlTemplate: 'http://{service}.{namespace}.svc:{adminPort}' },
      portsConfigMap: 'idplane-agent-ports',
      metricsPort: 8080,
    })
  })

  it('reads every variable', () => {
    const config = loadConfig({
      WATCH_NAMESPACE: 'tenants',
      OPERATOR_LEASE_NAME: 'lease',
      OPERATOR_LEASE_NAMESPACE: 'leases',
      OPERATOR_AGENT_POLL_ATTEMPTS: '3',
      OPERATOR_AGENT_POLL_INTERVAL_MS: '50',
      OPERATOR_AGENT_URL_TEMPLATE: 'http://127.0.0.1:{adminPort}',
      OPERATOR_METRICS_PORT: '9090',
      KUBECONFIG: '/tmp/kubeconfig',
    })
    expect(config).toMatchObject({
      watchNamespace: 'tenants',
      lease: { name: 'lease', namespace: 'leases' },
      agentPoll: { attempts: 3, intervalMs: 50, urlTemplate: 'http://127.0.0.1:{adminPort}' },
      metricsPort: 9090,
      kubeconfig: '/tmp/kubeconfig',
    })
  })

  it('reports every bad variable by name, never by value', () => {
    let error: unknown
    try {
      loadConfig({
        OPERATOR_AGENT_POLL_ATTEMPTS: 'six',
        OPERATOR_METRICS_PORT: '70000',
        OPERATOR_AGENT_URL_TEMPLATE: 'http://secret-host/',
      })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ConfigError)
    const message = String(error)
    expect(message).toContain('OPERATOR_AGENT_POLL_ATTEMPTS: must be a whole number')
    expect(message).toContain('OPERATOR_METRICS_PORT: must be at most 65535')
    expect(message).toContain('OPERATOR_AGENT_URL_TEMPLATE: must contain {adminPort}')
    expect(message).not.toContain('secret-host')
  })
})
