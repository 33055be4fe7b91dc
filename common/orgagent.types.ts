/**
 * TypeScript mirror of crds/orgagent.yaml (the source of truth). orgagent.types.test.ts keeps the two in
 * step: a field added to one and not the other fails the unit tests.
 */
import { AGENT_ENV } from './agent-contract/launch-env'

export const ORGAGENT_GROUP = 'idplane.io'
export const ORGAGENT_VERSION = 'v1alpha1'
export const ORGAGENT_API_VERSION = `${ORGAGENT_GROUP}/${ORGAGENT_VERSION}`
export const ORGAGENT_KIND = 'OrgAgent'
export const ORGAGENT_PLURAL = 'orgagents'

export const ORGAGENT_PHASES = ['Pending', 'Provisioning', 'Ready', 'Failed', 'Terminating'] as const
export type OrgAgentPhase = (typeof ORGAGENT_PHASES)[number]

export const IMAGE_PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'] as const
export type ImagePullPolicy = (typeof IMAGE_PULL_POLICIES)[number]

export const CONDITION_STATUSES = ['True', 'False', 'Unknown'] as const
export type ConditionStatus = (typeof CONDITION_STATUSES)[number]

/** Keys the agent Secret may carry; each becomes the env variable of the same name. */
export const ORGAGENT_SECRET_KEYS = {
  required: [AGENT_ENV.apiKey, AGENT_ENV.walletKey],
  optional: [AGENT_ENV.databaseUrl, AGENT_ENV.eventToken],
} as const

export interface ResourceQuantities {
  cpu?: string
  memory?: string
}

export interface OrgAgentResources {
  requests?: ResourceQuantities
  limits?: ResourceQuantities
}

export interface OrgAgentEnvVar {
  name: string
  value?: string
}

export interface OrgAgentSpec {
  orgId: string
  label: string
  image: string
  imagePullPolicy?: ImagePullPolicy
  secretName: string
  eventUrl?: string
  publicEndpointBase?: string
  resources?: OrgAgentResources
  env?: OrgAgentEnvVar[]
}

/** metav1.Condition. */
export interface Condition {
  type: string
  status: ConditionStatus
  reason: string
  message: string
  lastTransitionTime: string
  observedGeneration?: number
}

export interface OrgAgentStatus {
  phase?: OrgAgentPhase
  adminPort?: number
  inboundPort?: number
  controllerEndpoint?: string
  podName?: string
  serviceName?: string
  observedGeneration?: number
  pollAttempts?: number
  conditions?: Condition[]
}

export interface OrgAgentMetadata {
  name?: string
  namespace?: string
  uid?: string
  resourceVersion?: string
  generation?: number
  creationTimestamp?: string | Date
  deletionTimestamp?: string | Date
  finalizers?: string[]
  labels?: Record<string, string>
  annotations?: Record<string, string>
}

export interface OrgAgent {
  apiVersion?: string
  kind?: string
  metadata: OrgAgentMetadata
  spec: OrgAgentSpec
  status?: OrgAgentStatus
}

export interface OrgAgentList {
  apiVersion?: string
  kind?: string
  metadata?: { resourceVersion?: string; continue?: string }
  items: OrgAgent[]
}
