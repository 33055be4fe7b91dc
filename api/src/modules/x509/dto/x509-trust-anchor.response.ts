import type { TrustAnchorJson } from '@idplane/common/agent-contract/openid4vc-api'
import { dateTime, object, optional, string, uuid } from '../../../infra/http/data-schema'

/** A trusted certificate as the agent keeps it (the organization's verifier, or a cloud wallet's tenant). */
export type X509TrustAnchorResponse = TrustAnchorJson

export const X509_TRUST_ANCHOR_SCHEMA = object<X509TrustAnchorResponse>('X509TrustAnchor', {
  id: uuid,
  certificate: string,
  fingerprint: string,
  subject: string,
  notBefore: dateTime,
  notAfter: dateTime,
  label: optional(string),
  createdAt: dateTime,
})
