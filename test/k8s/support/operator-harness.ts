import { spawn, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { compileProgram, type CompiledProgram } from '../../helpers/compile-program'
import type * as k8s from '@kubernetes/client-node'
import { Logger } from '@idplane/common'
import { loadConfig } from '../../../operator/src/config'
import { Operator } from '../../../operator/src/operator'

const ROOT = path.join(__dirname, '..', '..', '..')

/** Operator env for tests: one namespace, short lease and poll timings, agents polled on 127.0.0.1. */
export function operatorEnv(namespace: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    WATCH_NAMESPACE: namespace,
    OPERATOR_NAMESPACE: namespace,
    POD_NAME: 'operator-a',
    OPERATOR_LEASE_DURATION_SECONDS: '3',
    OPERATOR_LEASE_RENEW_DEADLINE_MS: '2000',
    OPERATOR_LEASE_RETRY_PERIOD_MS: '250',
    OPERATOR_AGENT_POLL_ATTEMPTS: '6',
    OPERATOR_AGENT_POLL_INTERVAL_MS: '300',
    OPERATOR_AGENT_POLL_TIMEOUT_MS: '500',
    OPERATOR_AGENT_URL_TEMPLATE: 'http://127.0.0.1:{adminPort}',
    OPERATOR_METRICS_PORT: '0',
    OPERATOR_METRICS_HOST: '127.0.0.1',
    LOG_LEVEL: 'debug',
    ...overrides,
  }
}

export interface RunningOperator {
  operator: Operator
  metricsPort: number
  /** Every JSON log line the operator wrote, parsed. */
  logs: Record<string, unknown>[]
  stop(): Promise<void>
}

/** Runs an operator replica inside the test process. */
export async function startOperator(kubeConfig: k8s.KubeConfig, env: Record<string, string>): Promise<RunningOperator> {
  const logs: Record<string, unknown>[] = []
  const logger = new Logger({}, 'debug', {
    write: (line) => void logs.push(JSON.parse(line) as Record<string, unknown>),
  })
  const operator = new Operator({ config: loadConfig(env), kubeConfig, logger })
  const metricsPort = await operator.start()
  let stopped = false
  return {
    operator,
    metricsPort,
    logs,
    stop: async () => {
      if (stopped) return
      stopped = true
      await operator.stop()
    },
  }
}

/**
 * Compiles operator/src and common/ with swc into a temporary directory (the shared dist/ belongs to the
 * build), once per test file, and returns the path of main.js.
 */
let compiled: CompiledProgram | undefined
export async function compileOperator(): Promise<string> {
  compiled ??= await compileProgram('operator')
  return compiled.main
}

export function removeCompiledOperator(): void {
  compiled?.remove()
  compiled = undefined
}

export interface OperatorProcess {
  child: ChildProcess
  output: string[]
  /** SIGKILL: no lease release, no cleanup, reconciles cut wherever they are. */
  kill(): Promise<void>
  /** SIGTERM: the graceful path (lease released). */
  terminate(): Promise<void>
}

/** Runs the compiled operator as `node main.js`, the way `npm run operator` does. */
export async function startOperatorProcess(
  kubeConfig: k8s.KubeConfig,
  env: Record<string, string>,
): Promise<OperatorProcess> {
  const main = await compileOperator()
  const kubeconfigFile = path.join(path.dirname(path.dirname(path.dirname(main))), `kubeconfig-${Date.now()}.json`)
  writeFileSync(kubeconfigFile, kubeConfig.exportConfig(), { mode: 0o600 })
  const child = spawn(process.execPath, [main], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_PATH: path.join(ROOT, 'node_modules'),
      NODE_NO_WARNINGS: '1',
      KUBECONFIG: kubeconfigFile,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output: string[] = []
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8')
    stream.on('data', (text: string) => output.push(...text.split('\n').filter(Boolean)))
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name)
    await exited
  }
  return { child, output, kill: () => signal('SIGKILL'), terminate: () => signal('SIGTERM') }
}
