import type { X509CertificateJson } from '@idplane/common/agent-contract/openid4vc-api'
import type { X509CertificateResponse } from './dto/x509-certificate.response'

/** The agent's certificate as the API answers it: the documented fields only, whatever else the agent adds. */
export function toX509CertificateResponse(json: X509CertificateJson): X509CertificateResponse {
  return {
    id: json.id,
    keyType: json.keyType,
    purpose: json.purpose,
    status: json.status,
    certificate: json.certificate,
    chain: json.chain,
    subject: json.subject,
    issuer: json.issuer,
    serialNumber: json.serialNumber,
    notBefore: json.notBefore,
    notAfter: json.notAfter,
    sanDnsNames: json.sanDnsNames,
    sanUriNames: json.sanUriNames,
    ...(json.issuerCertificateId ? { issuerCertificateId: json.issuerCertificateId } : {}),
    isImported: json.isImported,
    createdAt: json.createdAt,
  }
}
