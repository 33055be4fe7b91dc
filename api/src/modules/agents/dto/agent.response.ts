import type { OrgAgent } from '../org-agent.entity'
import {
  boolean,
  dateTime,
  integer,
  nullable,
  object,
  oneOf,
  string,
  uuid,
  type Properties,
} from '../../../infra/http/data-schema'
import { AGENT_RUNTIMES, DID_METHODS } from '../org-agent.entity'
import { AGENT_STATUSES } from '../org-agent.states'

/** The provisioning record (spin-up 201 and health); secrets never leave the database. */
export interface AgentResponse {
  id: string
  orgId: string
  label: string
  status: OrgAgent['status']
  failureReason: string | null
  runtime: OrgAgent['runtime']
  didMethod: OrgAgent['didMethod']
  domain: string | null
  adminPort: number | null
  inboundPort: number | null
  controllerEndpoint: string | null
  /** Restarts by the process runtime after the agent crashed (Kubernetes: see the pod's restart count). */
  restarts: number
  /** The last crash, or null. */
  lastExit: { code: number | null; signal: string | null; at: string } | null
  createdAt: string
  updatedAt: string
}

export interface AgentHealthResponse extends AgentResponse {
  /** Whether GET /agent at the controller endpoint answered 200 just now. */
  isAnswering: boolean
}

export function toAgentResponse(agent: OrgAgent): AgentResponse {
  return {
    id: agent.id,
    orgId: agent.organization.id,
    label: agent.label,
    status: agent.status,
    failureReason: agent.failureReason ?? null,
    runtime: agent.runtime,
    didMethod: agent.didMethod,
    domain: agent.domain ?? null,
    adminPort: agent.adminPort ?? null,
    inboundPort: agent.inboundPort ?? null,
    controllerEndpoint: agent.controllerEndpoint ?? null,
    restarts: agent.restarts,
    lastExit: agent.lastExitAt
      ? { code: agent.lastExitCode ?? null, signal: agent.lastExitSignal ?? null, at: agent.lastExitAt.toISOString() }
      : null,
    createdAt: agent.createdAt.toISOString(),
    updatedAt: agent.updatedAt.toISOString(),
  }
}

const AGENT_PROPERTIES: Properties<AgentResponse> = {
  id: uuid,
  orgId: uuid,
  label: string,
  status: oneOf(AGENT_STATUSES),
  failureReason: nullable(string),
  runtime: oneOf(AGENT_RUNTIMES),
  didMethod: oneOf(DID_METHODS),
  domain: nullable(string),
  adminPort: nullable(integer),
  inboundPort: nullable(integer),
  controllerEndpoint: nullable(string),
  restarts: integer,
  lastExit: nullable(
    object<NonNullable<AgentResponse['lastExit']>>('AgentExit', {
      code: nullable(integer),
      signal: nullable(string),
      at: dateTime,
    }),
  ),
  createdAt: dateTime,
  updatedAt: dateTime,
}

/** AgentResponse and AgentHealthResponse in the OpenAPI document. */
export const AGENT_SCHEMA = object<AgentResponse>('Agent', AGENT_PROPERTIES)
export const AGENT_HEALTH_SCHEMA = object<AgentHealthResponse>('AgentHealth', {
  ...AGENT_PROPERTIES,
  isAnswering: boolean,
})
