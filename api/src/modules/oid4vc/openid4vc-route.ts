import type { DataSchema } from '../../infra/http/data-schema'
import { DocumentedRoute } from '../../infra/http/documented-route'

/**
 * What an OpenID4VC or x509 route answers when the organization's agent refuses: 404 no agent or record, 409 agent
 * not ready, name in use or no signer, 501 OpenID4VC off on the agent, 502 agent failure (one list for the three
 * experimental modules' controllers).
 */
export const OPENID4VC_AGENT_ERRORS = [404, 409, 501, 502] as const

/**
 * A route of the experimental OpenID4VC, OID4VP and x509 controllers: its roles, its summary, its answer, and the
 * refusals of the organization's agent that every one of them may pass on (OPENID4VC_AGENT_ERRORS).
 */
export function OpenId4VcRoute<T>(roles: readonly string[], summary: string, data: DataSchema<T>) {
  return DocumentedRoute({ roles, summary, data, errors: OPENID4VC_AGENT_ERRORS })
}
