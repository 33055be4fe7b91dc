import type { X509CertificateJson } from '@idplane/common/agent-contract/openid4vc-api'
import { arrayOf, boolean, dateTime, object, oneOf, optional, string, uuid } from '../../../infra/http/data-schema'
import { X509_KEY_TYPES, X509_PURPOSES } from './x509-certificate.dto'

/** A certificate of the organization as the API shows it: the agent's record, without the KMS key id. */
export type X509CertificateResponse = X509CertificateJson

export const X509_CERTIFICATE_SCHEMA = object<X509CertificateResponse>('X509Certificate', {
  id: uuid,
  keyType: oneOf(X509_KEY_TYPES),
  purpose: oneOf(X509_PURPOSES),
  status: oneOf(['active', 'inactive'] as const),
  certificate: string,
  chain: arrayOf(string),
  subject: string,
  issuer: string,
  serialNumber: string,
  notBefore: dateTime,
  notAfter: dateTime,
  sanDnsNames: arrayOf(string),
  sanUriNames: arrayOf(string),
  issuerCertificateId: optional(uuid),
  isImported: boolean,
  createdAt: dateTime,
})
