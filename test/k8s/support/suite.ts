import type * as k8s from '@kubernetes/client-node'
import type { TestKubeApiServer } from '../../helpers/kube-test-server'
import { startProcessKubelet, type ProcessKubelet } from '../../helpers/process-kubelet'
import { stubAgentCommand } from '../../helpers/stub-agent'
import { Cluster, eventually } from './fixtures'
import { createNamespace, kubeServerKinds, startKubeServer, type KubeServerKind } from './kube-servers'
import { operatorEnv, startOperator, type RunningOperator } from './operator-harness'

/** Agents whose name starts with this prefix run the stub in its never-answering mode. */
export const UNREACHABLE_PREFIX = 'unreachable-'

/** A loopback address for this test file's agents (see ProcessKubeletOptions.podIP). */
function loopbackAddress(): string {
  const octet = () => 1 + Math.floor(Math.random() * 250)
  return `127.${1 + (process.pid % 250)}.${octet()}.${octet()}`
}

export interface KubeSuite {
  readonly kind: KubeServerKind
  /** The address of every agent Pod of this file: operators poll http://<podIP>:<adminPort>/agent. */
  readonly podIP: string
  /** operatorEnv() for this file's podIP. */
  operatorEnv(namespace: string, overrides?: Record<string, string>): Record<string, string>
  server(): TestKubeApiServer
  kubeConfig(): k8s.KubeConfig
  cluster(): Cluster
  kubelet(): ProcessKubelet
  /** Starts an in-process operator replica, stopped after the test. */
  startOperator(env: Record<string, string>): Promise<RunningOperator>
  /**
   * A fresh namespace for the current test. Every agent process of the test shares 127.0.0.1, so after the
   * test (and after its operators stopped) the namespace's Pods are deleted and their processes awaited.
   */
  namespace(): Promise<string>
  /** Runs `cleanup` after the current test, whatever its outcome. */
  defer(cleanup: () => Promise<void>): void
  /** `it`, skipped (with a warning at start-up) when this kind of server cannot run here. */
  it(name: string, test: () => Promise<void>, timeoutMs?: number): void
}

/**
 * Declares `body` once per available API server (the in-memory fake, and a real kube-apiserver with etcd
 * when installed), each with the OrgAgent CRD installed and a process kubelet running pods as stub agents.
 */
export function describeOnKubeServers(title: string, body: (suite: KubeSuite) => void): void {
  describe.each(kubeServerKinds())(`${title} (%s kube-apiserver)`, (kind) => {
    let server: TestKubeApiServer | undefined
    let kubelet: ProcessKubelet | undefined
    let cluster: Cluster | undefined
    const cleanups: (() => Promise<void>)[] = []
    const podIP = loopbackAddress()
    const need = <T>(value: T | undefined, what: string): T => {
      if (value === undefined) throw new Error(`${what} is not running`)
      return value
    }

    beforeAll(async () => {
      server = await startKubeServer(kind)
      cluster = new Cluster(server.kubeConfig())
      kubelet = await startProcessKubelet({
        kubeConfig: server.kubeConfig(),
        podIP,
        command: (pod) =>
          stubAgentCommand(pod.metadata?.name?.startsWith(UNREACHABLE_PREFIX) ? 'never-ready' : 'healthy', podIP),
        onOutput: process.env.IDPLANE_TEST_LOGS ? (line) => console.log(line) : undefined,
      })
    }, 120_000)

    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
    }, 60_000)

    afterAll(async () => {
      await kubelet?.stop()
      await server?.stop()
    }, 60_000)

    const suite: KubeSuite = {
      kind,
      podIP,
      operatorEnv: (namespace, overrides = {}) =>
        operatorEnv(namespace, { OPERATOR_AGENT_URL_TEMPLATE: `http://${podIP}:{adminPort}`, ...overrides }),
      server: () => need(server, 'the API server'),
      kubeConfig: () => need(server, 'the API server').kubeConfig(),
      cluster: () => need(cluster, 'the API server'),
      kubelet: () => need(kubelet, 'the process kubelet'),
      startOperator: async (env) => {
        const running = await startOperator(suite.kubeConfig(), env)
        cleanups.push(() => running.stop())
        if (process.env.IDPLANE_TEST_LOGS) {
          const push = running.logs.push.bind(running.logs)
          running.logs.push = (...entries) => {
            for (const entry of entries) console.log(JSON.stringify(entry))
            return push(...entries)
          }
        }
        return running
      },
      namespace: async () => {
        const namespace = await createNamespace(suite.kubeConfig())
        cleanups.push(async () => {
          const core = suite.cluster().core
          const pods = await core.listNamespacedPod({ namespace })
          for (const pod of pods.items) {
            await core
              .deleteNamespacedPod({ namespace, name: pod.metadata?.name ?? '', gracePeriodSeconds: 0 })
              .catch(() => undefined)
          }
          await eventually(
            async () =>
              !suite
                .kubelet()
                .runningPods()
                .some((key) => key.startsWith(`${namespace}/`)),
            {
              what: `agent processes of ${namespace} stopped`,
            },
          )
        })
        return namespace
      },
      defer: (cleanup) => void cleanups.push(cleanup),
      it: (name, test, timeoutMs = 60_000) =>
        it(
          name,
          async () => {
            need(server, 'the API server')
            await test()
          },
          timeoutMs,
        ),
    }
    body(suite)
  })
}
