import * as k8s from '@kubernetes/client-node'

/** The three API groups the operator talks to, built once from a KubeConfig. */
export interface KubeApis {
  readonly core: k8s.CoreV1Api
  readonly custom: k8s.CustomObjectsApi
  readonly coordination: k8s.CoordinationV1Api
}

export function makeKubeApis(kubeConfig: k8s.KubeConfig): KubeApis {
  return {
    core: kubeConfig.makeApiClient(k8s.CoreV1Api),
    custom: kubeConfig.makeApiClient(k8s.CustomObjectsApi),
    coordination: kubeConfig.makeApiClient(k8s.CoordinationV1Api),
  }
}

/** KUBECONFIG when set, the in-cluster service account otherwise (client-node's loadFromDefault order). */
export function loadKubeConfig(kubeconfigPath: string | undefined): k8s.KubeConfig {
  const config = new k8s.KubeConfig()
  if (kubeconfigPath) config.loadFromFile(kubeconfigPath)
  else config.loadFromDefault()
  return config
}
