import * as k8s from '@kubernetes/client-node'

/**
 * client-node 1.x sends patches as application/json-patch+json unless told otherwise, and custom resources
 * reject strategic merge: every merge patch the operator sends goes through these options.
 */
export const MERGE_PATCH: k8s.ConfigurationOptions = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch)

export const JSON_PATCH: k8s.ConfigurationOptions = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch)
