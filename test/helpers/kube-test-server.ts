import type * as k8s from '@kubernetes/client-node'

/**
 * A Kubernetes API server a k8s test talks to: the in-memory fake (fake-kube-apiserver.ts) or a real
 * kube-apiserver with etcd (real-kube-apiserver.ts). Tests are written once against this interface and run
 * against every implementation available on the machine (see test/k8s/support/kube-servers.ts).
 */
export interface TestKubeApiServer {
  /** Base URL of the API server, e.g. http://127.0.0.1:41234. */
  server: string
  /** Stops the server and everything it started; resolves once the port is free. */
  stop(): Promise<void>
  /** A KubeConfig whose current context points at this server with enough rights for the operator and tests. */
  kubeConfig(): k8s.KubeConfig
}
