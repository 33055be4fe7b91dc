import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import * as k8s from '@kubernetes/client-node'
import { silentLogger } from '@idplane/common'
import { isNotFound } from '../../operator/src/kube/api-errors'
import { RestartingInformer } from '../../operator/src/kube/informer'
import { MERGE_PATCH } from '../../operator/src/kube/patch'

/**
 * A test-only kubelet: every Pod becomes a local process running the container's command (or a substitute)
 * with the Pod's env resolved (secretKeyRef and configMapKeyRef read from the API), the Pod's status is
 * written back (Running, podIP 127.0.0.1, containerStatuses with readiness from the readiness probe), a
 * process that exits is restarted, and a deleted Pod's process is killed. Only the first container runs.
 */
export interface ProcessKubeletOptions {
  kubeConfig: k8s.KubeConfig
  /** Substitute for a container's command; undefined runs the container's own command. */
  command?: (
    pod: k8s.V1Pod,
    container: k8s.V1Container,
  ) => { command: string[]; env?: Record<string, string> } | undefined
  /** Working directory of the processes. @default the repository root */
  cwd?: string
  /**
   * The address every Pod gets (status.podIP, readiness probes). A 127.x.y.z address of its own keeps the
   * agents of test files running at the same time apart, since they all listen on ports 8002.. @default 127.0.0.1
   */
  podIP?: string
  /** Receives every output line of every process, prefixed with the Pod name. */
  onOutput?: (line: string) => void
}

interface RunningPod {
  uid: string
  namespace: string
  name: string
  process?: ChildProcess
  restartCount: number
  ready: boolean
  stopped: boolean
  startedAt?: string
  probeTimer?: NodeJS.Timeout
  retryTimer?: NodeJS.Timeout
  exited?: Promise<void>
}

const REPO_ROOT = path.join(__dirname, '..', '..')

export class ProcessKubelet {
  private readonly core: k8s.CoreV1Api
  private readonly informer: RestartingInformer<k8s.V1Pod>
  private readonly pods = new Map<string, RunningPod>()
  private readonly podIP: string

  public constructor(private readonly options: ProcessKubeletOptions) {
    this.core = options.kubeConfig.makeApiClient(k8s.CoreV1Api)
    this.podIP = options.podIP ?? '127.0.0.1'
    this.informer = new RestartingInformer<k8s.V1Pod>(options.kubeConfig, {
      kind: 'Pod',
      path: '/api/v1/pods',
      list: () => this.core.listPodForAllNamespaces(),
      logger: silentLogger,
    })
    this.informer.onEvent((event, pod) => this.onPod(event, pod))
  }

  public async start(): Promise<void> {
    await this.informer.start()
  }

  /** Stops watching and kills every process it started. */
  public async stop(): Promise<void> {
    await this.informer.stop()
    await Promise.all([...this.pods.values()].map((running) => this.kill(running)))
    this.pods.clear()
  }

  /** Pods with a live process, as namespace/name. */
  public runningPods(): string[] {
    return [...this.pods.values()]
      .filter((running) => running.process?.exitCode === null)
      .map((running) => `${running.namespace}/${running.name}`)
  }

  private onPod(event: 'add' | 'update' | 'delete', pod: k8s.V1Pod): void {
    const uid = pod.metadata?.uid ?? ''
    const known = this.pods.get(uid)
    if (event === 'delete' || pod.metadata?.deletionTimestamp) {
      if (known) {
        this.pods.delete(uid)
        void this.kill(known)
      }
      return
    }
    if (known || (pod.spec?.nodeName && pod.spec.nodeName !== 'process-kubelet')) return
    const running: RunningPod = {
      uid,
      namespace: pod.metadata?.namespace ?? '',
      name: pod.metadata?.name ?? '',
      restartCount: 0,
      ready: false,
      stopped: false,
    }
    this.pods.set(uid, running)
    void this.run(running, pod)
  }

  private async run(running: RunningPod, pod: k8s.V1Pod): Promise<void> {
    const container = pod.spec?.containers[0]
    if (!container || running.stopped) return
    let env: Record<string, string>
    try {
      env = await this.resolveEnv(pod, container)
    } catch (error) {
      await this.writeStatus(running, pod, {
        waiting: { reason: 'CreateContainerConfigError', message: String(error) },
      })
      // Killed meanwhile (kill found no timer to clear): a retry set now would hold the test's process for a second
      // after its last test, and jest force-exited that worker.
      if (!running.stopped) running.retryTimer = setTimeout(() => void this.run(running, pod), 1000)
      return
    }
    // Killed while its environment was being read (the pod deleted, or the kubelet stopped at the end of a test): a
    // process started now would outlive the test, as one did in a CI rehearsal (its parent gone, still listening).
    if (running.stopped) return
    const substitute = this.options.command?.(pod, container)
    const command = substitute?.command ?? [...(container.command ?? []), ...(container.args ?? [])]
    if (command.length === 0) throw new Error(`Pod ${running.name} has no command`)
    const child = spawn(command[0], command.slice(1), {
      cwd: this.options.cwd ?? REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', ...env, ...substitute?.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    running.process = child
    running.startedAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z')
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8')
      stream.on('data', (text: string) => {
        for (const line of text.split('\n').filter(Boolean)) this.options.onOutput?.(`${running.name}: ${line}`)
      })
    }
    running.exited = new Promise((resolve) => child.once('exit', () => resolve()))
    child.once('exit', () => {
      if (running.probeTimer) clearInterval(running.probeTimer)
      if (running.stopped) return
      running.restartCount += 1
      running.ready = false
      running.retryTimer = setTimeout(() => void this.run(running, pod), 1000)
    })
    await this.writeStatus(running, pod, { running: { startedAt: new Date(running.startedAt) } })
    this.startProbe(running, pod, container)
  }

  private startProbe(running: RunningPod, pod: k8s.V1Pod, container: k8s.V1Container): void {
    const httpGet = container.readinessProbe?.httpGet
    if (!httpGet) {
      running.ready = true
      void this.writeStatus(running, pod, { running: { startedAt: new Date(running.startedAt ?? '') } })
      return
    }
    const port =
      typeof httpGet.port === 'number'
        ? httpGet.port
        : container.ports?.find((p) => p.name === httpGet.port)?.containerPort
    running.probeTimer = setInterval(() => {
      fetch(`http://${this.podIP}:${port}${httpGet.path ?? '/'}`, { signal: AbortSignal.timeout(1000) })
        .then((response) => response.status >= 200 && response.status < 400)
        .catch(() => false)
        .then((ready) => {
          if (ready === running.ready || running.stopped) return
          running.ready = ready
          void this.writeStatus(running, pod, { running: { startedAt: new Date(running.startedAt ?? '') } })
        })
    }, 300)
  }

  private async resolveEnv(pod: k8s.V1Pod, container: k8s.V1Container): Promise<Record<string, string>> {
    const namespace = pod.metadata?.namespace ?? ''
    const env: Record<string, string> = {}
    for (const variable of container.env ?? []) {
      const from = variable.valueFrom
      if (!from) {
        env[variable.name] = variable.value ?? ''
      } else if (from.secretKeyRef) {
        const value = await this.readKey('secret', namespace, from.secretKeyRef.name ?? '', from.secretKeyRef.key)
        if (value !== undefined) env[variable.name] = value
        else if (!from.secretKeyRef.optional)
          throw new Error(`secret key ${from.secretKeyRef.name}/${from.secretKeyRef.key} not found`)
      } else if (from.configMapKeyRef) {
        const value = await this.readKey(
          'configmap',
          namespace,
          from.configMapKeyRef.name ?? '',
          from.configMapKeyRef.key,
        )
        if (value !== undefined) env[variable.name] = value
        else if (!from.configMapKeyRef.optional)
          throw new Error(`configmap key ${from.configMapKeyRef.name}/${from.configMapKeyRef.key} not found`)
      } else if (from.fieldRef) {
        const field = from.fieldRef.fieldPath
        env[variable.name] =
          field === 'metadata.name'
            ? (pod.metadata?.name ?? '')
            : field === 'metadata.namespace'
              ? namespace
              : field === 'status.podIP'
                ? this.podIP
                : ''
      }
    }
    return env
  }

  private async readKey(
    kind: 'secret' | 'configmap',
    namespace: string,
    name: string,
    key: string,
  ): Promise<string | undefined> {
    try {
      if (kind === 'configmap') return (await this.core.readNamespacedConfigMap({ name, namespace })).data?.[key]
      const encoded = (await this.core.readNamespacedSecret({ name, namespace })).data?.[key]
      return encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8')
    } catch (error) {
      if (isNotFound(error)) return undefined
      throw error
    }
  }

  private async writeStatus(running: RunningPod, pod: k8s.V1Pod, state: k8s.V1ContainerState): Promise<void> {
    if (running.stopped) return
    const container = pod.spec?.containers[0]
    const readyStatus = running.ready ? 'True' : 'False'
    const status: k8s.V1PodStatus = {
      phase: 'Running',
      podIP: this.podIP,
      podIPs: [{ ip: this.podIP }],
      hostIP: this.podIP,
      startTime: running.startedAt ? new Date(running.startedAt) : undefined,
      conditions: [
        { type: 'Ready', status: readyStatus },
        { type: 'ContainersReady', status: readyStatus },
      ],
      containerStatuses: [
        {
          name: container?.name ?? '',
          image: container?.image ?? '',
          imageID: '',
          ready: running.ready,
          started: state.running !== undefined,
          restartCount: running.restartCount,
          state,
        },
      ],
    }
    try {
      await this.core.patchNamespacedPodStatus(
        { name: running.name, namespace: running.namespace, body: { status } },
        MERGE_PATCH,
      )
    } catch (error) {
      if (!isNotFound(error))
        this.options.onOutput?.(`${running.name}: status update failed: ${String(error).split('\n')[0]}`)
    }
  }

  private async kill(running: RunningPod): Promise<void> {
    running.stopped = true
    if (running.probeTimer) clearInterval(running.probeTimer)
    if (running.retryTimer) clearTimeout(running.retryTimer)
    const child = running.process
    if (!child || child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const forced = setTimeout(() => child.kill('SIGKILL'), 2000)
    await running.exited
    clearTimeout(forced)
  }
}

/** Starts a process kubelet watching every Pod of the API server behind `options.kubeConfig`. */
export async function startProcessKubelet(options: ProcessKubeletOptions): Promise<ProcessKubelet> {
  const kubelet = new ProcessKubelet(options)
  await kubelet.start()
  return kubelet
}
