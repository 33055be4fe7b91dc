import { readFileSync } from 'node:fs'
import path from 'node:path'
import * as k8s from '@kubernetes/client-node'
import { parse } from 'yaml'
import { startFakeKubeApiServer } from '../../helpers/fake-kube-apiserver'
import type { TestKubeApiServer } from '../../helpers/kube-test-server'
import { hasRealKubeApiServer, startRealKubeApiServer } from '../../helpers/real-kube-apiserver'
import { requireTools } from '../../helpers/test-tools'

export type KubeServerKind = 'fake' | 'real'

const CRD_FILE = path.join(__dirname, '..', '..', '..', 'crds', 'orgagent.yaml')

/** Every kind of API server to run the k8s tests against: the fake always, the real one when installed here. */
export function kubeServerKinds(): KubeServerKind[] {
  if (process.env.IDPLANE_K8S_SERVERS === 'fake') return ['fake']
  const hasReal = requireTools('real kube-apiserver suites', () =>
    hasRealKubeApiServer() ? [] : ['kube-apiserver/etcd (scripts/kube-apiserver.sh)'],
  )
  return hasReal ? ['fake', 'real'] : ['fake']
}

/**
 * Starts a server of `kind` with the OrgAgent CRD installed.
 * @throws Error when a real server cannot run here (kubeServerKinds() offers 'real' only when it can)
 */
export async function startKubeServer(kind: KubeServerKind): Promise<TestKubeApiServer> {
  const server = kind === 'fake' ? await startFakeKubeApiServer() : await startRealKubeApiServer()
  if (!server) throw new Error(`The ${kind} kube-apiserver is not installed here (scripts/kube-apiserver.sh)`)
  await installCrd(server.kubeConfig())
  return server
}

/** Applies crds/orgagent.yaml (the file that ships) and waits until the API serves it. */
export async function installCrd(kubeConfig: k8s.KubeConfig): Promise<void> {
  const api = kubeConfig.makeApiClient(k8s.ApiextensionsV1Api)
  const crd = parse(readFileSync(CRD_FILE, 'utf8')) as k8s.V1CustomResourceDefinition
  try {
    await api.createCustomResourceDefinition({ body: crd })
  } catch (error) {
    if ((error as { code?: unknown }).code !== 409) throw error
  }
  const custom = kubeConfig.makeApiClient(k8s.CustomObjectsApi)
  const deadline = Date.now() + 30_000
  for (;;) {
    try {
      await custom.listNamespacedCustomObject({
        group: 'idplane.io',
        version: 'v1alpha1',
        namespace: 'default',
        plural: 'orgagents',
      })
      return
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

let namespaceCounter = 0

/** A fresh namespace per test, so tests sharing one API server do not see each other's objects. */
export async function createNamespace(kubeConfig: k8s.KubeConfig, prefix = 'idplane-test'): Promise<string> {
  namespaceCounter += 1
  const name = `${prefix}-${process.pid}-${namespaceCounter}`
  await kubeConfig.makeApiClient(k8s.CoreV1Api).createNamespace({ body: { metadata: { name } } })
  return name
}
