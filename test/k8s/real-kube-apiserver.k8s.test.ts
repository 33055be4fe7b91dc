import { createServer, type Server } from 'node:net'
import * as k8s from '@kubernetes/client-node'
import { closeServer, freePort } from '../helpers/ports'
import { hasRealKubeApiServer, startRealKubeApiServer, type RealKubeApiServer } from '../helpers/real-kube-apiserver'
import { requireTools } from '../helpers/test-tools'

/**
 * The helper that runs etcd and a real kube-apiserver for the k8s suites: a start whose etcd exits at once (its port
 * was taken between the check and the bind, by another jest worker's process) is made again on other ports.
 */
const describeIfAvailable = requireTools('test/k8s/real-kube-apiserver.k8s.test.ts', () =>
  hasRealKubeApiServer() ? [] : ['kube-apiserver/etcd (scripts/kube-apiserver.sh)'],
)
  ? describe
  : describe.skip

describeIfAvailable('the real kube-apiserver helper', () => {
  let taken: Server | undefined
  let server: RealKubeApiServer | undefined

  afterEach(async () => {
    await server?.stop()
    await closeServer(taken)
  })

  it('starts again on other ports when etcd cannot bind its port, and the server it gives answers', async () => {
    const etcdClientPort = await freePort()
    // The first attempt's kube-apiserver connects to it as to etcd: dropped at once, so the close does not wait on it.
    taken = createServer((socket) => socket.destroy())
    await new Promise<void>((resolve) => taken?.listen(etcdClientPort, '127.0.0.1', resolve))

    server = await startRealKubeApiServer([etcdClientPort, await freePort(), await freePort()])

    expect(server?.attempts).toBe(2)
    // An authenticated call (not a namespace: the server makes those in the background after /readyz).
    const version = await server?.kubeConfig().makeApiClient(k8s.VersionApi).getCode()
    expect(version?.gitVersion).toMatch(/^v1\.\d+/)
  }, 120_000)
})
