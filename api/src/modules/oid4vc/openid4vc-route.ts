import type { DataSchema } from '../../infra/http/data-schema'
import { DocumentedRoute } from '../../infra/http/documented-route'
import { OPENID4VC_AGENT_ERRORS } from './oid4vc.config'

/**
 * A route of the experimental OpenID4VC, OID4VP and x509 controllers: its roles, its summary, its answer, and the
 * refusals of the organization's agent that every one of them may pass on (OPENID4VC_AGENT_ERRORS).
 */
export function OpenId4VcRoute<T>(roles: readonly string[], summary: string, data: DataSchema<T>) {
  return DocumentedRoute({ roles, summary, data, errors: OPENID4VC_AGENT_ERRORS })
}
