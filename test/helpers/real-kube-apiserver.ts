import { spawn, execFile, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, createWriteStream } from 'node:fs'
import { request } from 'node:https'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import * as k8s from '@kubernetes/client-node'
import type { TestKubeApiServer } from './kube-test-server'
import { findOnPath } from './test-tools'
import { freePort } from './ports'

const execFileAsync = promisify(execFile)

/** Where scripts/kube-apiserver.sh puts the binaries it builds (outside the repository). */
export function kubeBinDir(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.IDPLANE_CACHE || path.join(os.homedir(), '.cache', 'idplane')
  return path.join(cache, 'kubernetes', 'bin')
}

/**
 * Path of a tool: the one the scripts put in the cache bin dir (a version matched to our kube-apiserver), else
 * the first on `PATH`; undefined when neither has it.
 */
export function kubeTool(
  name: 'kube-apiserver' | 'kubectl' | 'helm',
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const file = path.join(kubeBinDir(env), name)
  return existsSync(file) ? file : findOnPath(name, env)
}

function etcdBinary(): string | undefined {
  const candidates = [process.env.IDPLANE_ETCD_BIN, '/usr/bin/etcd', '/usr/local/bin/etcd']
  return candidates.find((file): file is string => file !== undefined && file !== '' && existsSync(file))
}

function apiServerBinary(): string | undefined {
  const override = process.env.IDPLANE_KUBE_APISERVER_BIN
  if (override) return existsSync(override) ? override : undefined
  return kubeTool('kube-apiserver')
}

/** True when kube-apiserver and etcd are both installed (scripts/kube-apiserver.sh). */
export function hasRealKubeApiServer(): boolean {
  return apiServerBinary() !== undefined && etcdBinary() !== undefined
}

const ADMIN_USER = 'idplane-test-admin'
const READY_TIMEOUT_MS = 60_000

export interface RealKubeApiServer extends TestKubeApiServer {
  /** PEM of the CA that signed the serving certificate. */
  caCert: string
  /** Bearer token of a system:masters user. */
  token: string
  /** Directory holding the data, certificates and the logs (etcd.log, kube-apiserver.log) while it runs. */
  dir: string
  /** Starts it took (more than one when a process exited early; see startRealKubeApiServer). */
  attempts: number
}

/**
 * Starts etcd and a real kube-apiserver (the envtest idea) on free loopback ports, with data and certificates
 * in a temporary directory: serving certificates from a CA generated with openssl, a static token of a
 * system:masters user, RBAC on, and no ServiceAccount admission (no controller-manager creates the default
 * ServiceAccount). Pods stay Pending: there is no kubelet.
 *
 * A start whose etcd or kube-apiserver exits early is made again on other ports and in a fresh directory, up to
 * START_ATTEMPTS times: a port checked free can still be taken before the process binds it (by a process another jest
 * worker starts on a port it picked at random from the same range), and etcd then exits at once. A rehearsal of `make
 * test` once failed leader-election.k8s with etcd exiting at start (its log was not kept); the suites no longer see it.
 * @param firstPorts etcd's client and peer ports and the API server's port for the first attempt (a test occupies one)
 * @returns undefined when kube-apiserver or etcd is not installed (run scripts/kube-apiserver.sh).
 * @throws Error when every attempt's process exited early (with the last one's log), or when /readyz does not answer ok
 *   within a minute; the message has the log's last lines.
 */
export async function startRealKubeApiServer(firstPorts?: readonly number[]): Promise<RealKubeApiServer | undefined> {
  const apiServerBin = apiServerBinary()
  const etcdBin = etcdBinary()
  if (apiServerBin === undefined || etcdBin === undefined) return undefined
  for (let attempt = 1; ; attempt++) {
    const ports = attempt === 1 && firstPorts ? firstPorts : await distinctFreePorts(3)
    try {
      return { ...(await startOnce(apiServerBin, etcdBin, ports)), attempts: attempt }
    } catch (error) {
      if (!(error instanceof ExitedEarlyError) || attempt >= START_ATTEMPTS) throw error
    }
  }
}

/** Starts of etcd and kube-apiserver tried before a process that exits early fails the caller. */
const START_ATTEMPTS = 3

/** etcd or kube-apiserver exited before the server was ready; the message has its log's last lines. */
class ExitedEarlyError extends Error {}

async function startOnce(
  apiServerBin: string,
  etcdBin: string,
  [etcdClientPort, etcdPeerPort, securePort]: readonly number[],
): Promise<Omit<RealKubeApiServer, 'attempts'>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'idplane-kube-'))
  const processes: ChildProcess[] = []
  const stop = async (): Promise<void> => {
    for (const child of processes.reverse()) await terminate(child)
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    const certs = await makeCertificates(dir)
    const token = randomBytes(24).toString('hex')
    writeFileSync(path.join(dir, 'tokens.csv'), `${token},${ADMIN_USER},${ADMIN_USER},"system:masters"\n`, {
      mode: 0o600,
    })

    const etcdUrl = `http://127.0.0.1:${etcdClientPort}`
    const peerUrl = `http://127.0.0.1:${etcdPeerPort}`
    processes.push(
      startProcess(
        etcdBin,
        [
          `--data-dir=${path.join(dir, 'etcd')}`,
          `--listen-client-urls=${etcdUrl}`,
          `--advertise-client-urls=${etcdUrl}`,
          `--listen-peer-urls=${peerUrl}`,
          `--initial-advertise-peer-urls=${peerUrl}`,
          `--initial-cluster=default=${peerUrl}`,
          '--unsafe-no-fsync',
        ],
        path.join(dir, 'etcd.log'),
      ),
    )
    processes.push(
      startProcess(
        apiServerBin,
        [
          `--etcd-servers=${etcdUrl}`,
          '--bind-address=127.0.0.1',
          '--advertise-address=127.0.0.1',
          `--secure-port=${securePort}`,
          '--insecure-port=0',
          `--cert-dir=${path.join(dir, 'certs')}`,
          `--tls-cert-file=${certs.serverCert}`,
          `--tls-private-key-file=${certs.serverKey}`,
          `--client-ca-file=${certs.caCert}`,
          `--token-auth-file=${path.join(dir, 'tokens.csv')}`,
          '--authorization-mode=RBAC',
          '--disable-admission-plugins=ServiceAccount',
          `--service-account-issuer=https://127.0.0.1:${securePort}`,
          `--service-account-key-file=${certs.serviceAccountKey}`,
          `--service-account-signing-key-file=${certs.serviceAccountKey}`,
          '--service-cluster-ip-range=10.96.0.0/16',
          '--allow-privileged=true',
          '--enable-priority-and-fairness=false',
          '--v=1',
        ],
        path.join(dir, 'kube-apiserver.log'),
      ),
    )

    const server = `https://127.0.0.1:${securePort}`
    const caCert = readFileSync(certs.caCert, 'utf8')
    await waitForReady(server, caCert, token, processes, dir)
    return {
      server,
      caCert,
      token,
      dir,
      stop,
      kubeConfig: () => buildKubeConfig(server, caCert, token),
    }
  } catch (error) {
    await stop()
    throw error
  }
}

function buildKubeConfig(server: string, caCert: string, token: string): k8s.KubeConfig {
  const kubeConfig = new k8s.KubeConfig()
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'idplane-test', server, caData: Buffer.from(caCert).toString('base64'), skipTLSVerify: false }],
    users: [{ name: ADMIN_USER, token }],
    contexts: [{ name: 'idplane-test', cluster: 'idplane-test', user: ADMIN_USER, namespace: 'default' }],
    currentContext: 'idplane-test',
  })
  return kubeConfig
}

/**
 * The process with its standard output and error in one log file, ended once both are closed: with `pipe`'s own end,
 * the first of the two to close ended the file and the other's next line failed the test ("write after end"), which
 * a process exiting at start (section above: started again) makes likely.
 */
function startProcess(binary: string, args: string[], logFile: string): ChildProcess {
  const log = createWriteStream(logFile)
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout?.pipe(log, { end: false })
  child.stderr?.pipe(log, { end: false })
  child.once('close', () => log.end())
  return child
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
}

/**
 * Below the ephemeral range (ports.ts): a port from that range could be taken by any outgoing connection (the suite's
 * agents connect to PostgreSQL by the hundred) before etcd binds it.
 */
async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>()
  while (ports.size < count) ports.add(await freePort())
  return [...ports]
}

interface Certificates {
  caCert: string
  serverCert: string
  serverKey: string
  serviceAccountKey: string
}

/** A throw-away CA, a serving certificate for 127.0.0.1/localhost signed by it, and a service-account key. */
async function makeCertificates(dir: string): Promise<Certificates> {
  const file = (name: string) => path.join(dir, name)
  const openssl = (args: string[]) => execFileAsync('openssl', args, { cwd: dir })
  await openssl(
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=idplane-test-ca'].concat([
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.crt'),
    ]),
  )
  await openssl(
    ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=kube-apiserver', '-keyout', file('server.key')].concat([
      '-out',
      file('server.csr'),
    ]),
  )
  writeFileSync(
    file('server.ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes.default.svc\nextendedKeyUsage=serverAuth\n',
  )
  await openssl(
    ['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.crt'), '-CAkey', file('ca.key')].concat([
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      file('server.ext'),
      '-out',
      file('server.crt'),
    ]),
  )
  await openssl(['genrsa', '-out', file('sa.key'), '2048'])
  return {
    caCert: file('ca.crt'),
    serverCert: file('server.crt'),
    serverKey: file('server.key'),
    serviceAccountKey: file('sa.key'),
  }
}

async function waitForReady(
  server: string,
  ca: string,
  token: string,
  processes: ChildProcess[],
  dir: string,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS
  let last = 'no answer'
  while (Date.now() < deadline) {
    const exited = processes.find((child) => child.exitCode !== null || child.signalCode !== null)
    if (exited) {
      const log = path.join(dir, `${path.basename(exited.spawnfile)}.log`)
      throw new ExitedEarlyError(
        `${exited.spawnfile} exited early (${exited.exitCode ?? exited.signalCode}):\n${tail(log)}`,
      )
    }
    try {
      const { status, body } = await get(`${server}/readyz`, ca, token)
      if (status === 200 && body.trim() === 'ok') return
      last = `HTTP ${status}`
    } catch (error) {
      last = (error as Error).message
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const log = tail(path.join(dir, 'kube-apiserver.log'))
  throw new Error(`kube-apiserver was not ready within ${READY_TIMEOUT_MS / 1000} s (${last}):\n${log}`)
}

/** The last lines of a log, for an error message (the directory is removed when start-up fails). */
function tail(file: string, lines = 20): string {
  if (!existsSync(file)) return `(no ${path.basename(file)})`
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
}

function get(url: string, ca: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, headers: { Authorization: `Bearer ${token}` }, timeout: 2_000 }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('timeout', () => req.destroy(new Error('timed out')))
    req.on('error', reject)
    req.end()
  })
}
