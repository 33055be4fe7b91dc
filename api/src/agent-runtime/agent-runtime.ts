import { AGENT_EVENTS_PATH, BASE_WALLET_EVENTS_PATH } from '@idplane/common/agent-contract/events'
import type { PortPair } from '@idplane/common/ports'

/** The secrets an agent starts with; the runtime passes them on and never stores or logs them. */
export interface AgentSecrets {
  apiKey: string
  walletKey: string
  /** Without one the agent is launched with no event URL (it posts no events). */
  eventToken?: string
}

/**
 * Optional agent capabilities the platform turns on for every agent it launches (AGENT_* launch variables),
 * decided by the modules' configuration in the composition root.
 */
export interface AgentFeatures {
  /** OpenID4VC and x509 (AGENT_OPENID4VC): on while the API serves their routes (HIDE_EXPERIMENTAL_OIDC_CONTROLLERS=false). */
  openId4Vc: boolean
}

/** What a runtime needs to run one organization's agent. */
export interface AgentLaunch {
  orgId: string
  label: string
  /** Process runtime: allocated and recorded by the API before launch. Kubernetes: the operator allocates. */
  ports?: PortPair
  /**
   * Called only when the runtime (re)creates the agent: it issues a fresh event token (only its hash is
   * stored, so a restart needs a new one) and opens the stored keys.
   */
  secrets: () => Promise<AgentSecrets>
  /**
   * The stored API key, opened without issuing anything: the process runtime asks an agent that is already
   * running on the recorded ports for GET /agent with it, to adopt it rather than start a second one.
   */
  apiKey: () => Promise<string>
}

/** How an agent's process ended (the process runtime): code or signal, and when. */
export interface AgentExit {
  code: number | null
  signal: string | null
  at: Date
}

/** What a runtime tells about agents between provisioning calls (the process runtime's restarts). */
export interface AgentLifecycleListener {
  /** A running agent ended without being asked to; the runtime starts it again after `restartInMs`. */
  onExit(orgId: string, exit: AgentExit, restartInMs: number): Promise<void>
  /** A restarted agent answered GET /agent again. */
  onRestarted(orgId: string, controllerEndpoint: string): Promise<void>
}

/** Where a runtime's agent stands. `ready` means GET /agent answered 200 at `controllerEndpoint`. */
export type AgentRuntimeStatus =
  | { phase: 'pending'; ports?: PortPair }
  | { phase: 'ready'; ports?: PortPair; controllerEndpoint: string }
  | { phase: 'failed'; ports?: PortPair; reason: string }
  | { phase: 'absent' }

export interface ProvisionOptions {
  /** Called on every observed change (ports allocated, phase moved), so the caller can mirror it. */
  onStatus?: (status: AgentRuntimeStatus) => Promise<void>
  /** Aborted when the API shuts down: provision stops waiting (the agent itself is left as it is). */
  signal?: AbortSignal
}

/**
 * Runs organizations' agents (DESIGN.md, "Agent runtimes"): `process` spawns them as children of the API,
 * `kubernetes` creates OrgAgent resources for the operator. Both allocate ports by the same rules, poll
 * GET /agent the same way and report the controller endpoint only for an agent that answered.
 */
export abstract class AgentRuntime {
  public abstract readonly kind: 'process' | 'kubernetes'

  /**
   * Starts the agent (or finds it started: calling again for the same organization is safe) and waits
   * until it is ready or failed.
   * @throws UpstreamError when the runtime itself cannot be reached (Kubernetes API)
   */
  public abstract provision(launch: AgentLaunch, options?: ProvisionOptions): Promise<AgentRuntimeStatus>

  /** The runtime's current view of the organization's agent. */
  public abstract status(orgId: string): Promise<AgentRuntimeStatus>

  /** Stops and removes the organization's agent; its ports are never reused. */
  public abstract stop(orgId: string): Promise<void>

  /**
   * Stops the agent and deletes what the runtime keeps of it (the organization is being deleted): the
   * process runtime its data directory, the Kubernetes runtime its OrgAgent and Secret.
   */
  public abstract remove(orgId: string): Promise<void>

  /**
   * The organization's agent announced that it answers GET /agent (POST <event URL>/ready): a runtime waiting for
   * it confirms with one GET /agent now instead of at its next poll. Runtimes that do not poll themselves (the
   * operator polls for Kubernetes) ignore it.
   * @returns whether a wait of this runtime was woken
   */
  public announceReady(orgId: string): boolean {
    void orgId
    return false
  }

  /**
   * The organizations' agents this API process looks after, running or watched, for a runtime whose API replicas
   * each look after agents themselves (the process runtime); undefined for one whose agents are looked after
   * elsewhere (the operator).
   */
  public trackedAgents(): ReadonlySet<string> | undefined {
    return undefined
  }

  /** Listens to agents' exits and restarts; runtimes that restart nothing themselves never call it. */
  public watch(listener: AgentLifecycleListener): void {
    void listener
  }

  /** Releases what the runtime holds (the process runtime stops its children). */
  public abstract close(): Promise<void>
}

/** The admin API's address from a status, when the agent is ready. */
export function readyEndpoint(status: AgentRuntimeStatus): string | undefined {
  return status.phase === 'ready' ? status.controllerEndpoint : undefined
}

/**
 * The runtime's id of the platform's own base-wallet agent (cloud wallet), given where an organization's agent
 * has its organization id: it belongs to no organization. Not hexadecimal, so no organization's names clash.
 */
export const BASE_WALLET_AGENT_ID = 'base-wallet'

/** A short, stable name part for an organization: the first 12 hex digits of its id (k8s names, schemas). */
export function shortOrgId(orgId: string): string {
  return orgId
    .replace(/[^0-9a-fA-F]/g, '')
    .slice(0, 12)
    .toLowerCase()
}

/** The agent's part of its resource names: `base-wallet` for the base-wallet agent, else shortOrgId. */
export function agentNamePart(orgId: string): string {
  return orgId === BASE_WALLET_AGENT_ID ? BASE_WALLET_AGENT_ID : shortOrgId(orgId)
}

/**
 * Where an agent posts its events: organizations' agents to the agent event route (authenticated by their event
 * token), the base-wallet agent to the wallet event route (authenticated by its API key; docs/decisions.md).
 */
export function agentEventsPath(orgId: string): string {
  return orgId === BASE_WALLET_AGENT_ID ? BASE_WALLET_EVENTS_PATH : AGENT_EVENTS_PATH
}

/** The PostgreSQL schema of an agent's tables when agents share the API's database. */
export function agentSchemaName(orgId: string): string {
  return `agent_${agentNamePart(orgId).replace(/-/g, '_')}`
}
