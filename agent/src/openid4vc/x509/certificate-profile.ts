import { type X509CertificateExtensionsOptions, X509ExtendedKeyUsage, X509KeyUsage } from '@credo-ts/core'
import { InvalidInputError } from '@idplane/common'

import type { X509Purpose } from './x509-certificate.record'

/** The subject (or issuer) of a certificate the organization creates. */
export interface X509NameInput {
  commonName: string
  organization?: string
  organizationalUnit?: string
  /** ISO 3166 two-letter code; ISO 18013-5 wants it on mdoc certificates. */
  country?: string
  stateOrProvince?: string
  locality?: string
}

/**
 * Attribute types in the order they are encoded, country first (X.500 habit). Credo's certificate builder
 * (@peculiar/x509) encodes a name string's attributes in the order written.
 */
const NAME_ATTRIBUTES: ReadonlyArray<[keyof X509NameInput, string]> = [
  ['country', 'C'],
  ['stateOrProvince', 'ST'],
  ['locality', 'L'],
  ['organization', 'O'],
  ['organizationalUnit', 'OU'],
  ['commonName', 'CN'],
]

/**
 * The name as a string of RFC 4514 attributes (escaped as it says) in encoding order, what Credo's builder parses.
 * @throws {InvalidInputError} for an empty common name, a country that is not two letters, or control characters
 */
export function distinguishedName(name: X509NameInput, field = 'subject'): string {
  const problems: { field: string; message: string }[] = []
  if (typeof name.commonName !== 'string' || name.commonName.trim() === '') {
    problems.push({ field: `${field}.commonName`, message: 'must be a non-empty string' })
  }
  if (name.country !== undefined && !/^[A-Z]{2}$/.test(name.country)) {
    problems.push({ field: `${field}.country`, message: 'must be an ISO 3166 two-letter code in capitals' })
  }
  const parts: string[] = []
  for (const [key, type] of NAME_ATTRIBUTES) {
    const value = name[key]
    if (value === undefined) continue
    // eslint-disable-next-line no-control-regex
    if (typeof value !== 'string' || value.length > 64 || /[\u0000-\u001f\u007f]/.test(value)) {
      problems.push({ field: `${field}.${key}`, message: 'must be a string of at most 64 printable characters' })
      continue
    }
    parts.push(`${type}=${escapeAttributeValue(value)}`)
  }
  if (problems.length > 0) throw new InvalidInputError(`Invalid ${field} name`, problems)
  return parts.join(', ')
}

/** RFC 4514 section 2.4: special characters escaped with a backslash, leading '#' and edge spaces too. */
function escapeAttributeValue(value: string): string {
  let escaped = value.replace(/[\\,+"<>;=]/g, (c) => `\\${c}`)
  if (escaped.startsWith('#') || escaped.startsWith(' ')) escaped = `\\${escaped}`
  if (escaped.endsWith(' ')) escaped = `${escaped.slice(0, -1)}\\ `
  return escaped
}

export interface ProfileOptions {
  sanDnsNames: string[]
  sanUriNames: string[]
  /** Signed by one of the organization's authority certificates (not self-signed). */
  hasAuthority: boolean
}

/**
 * The X.509 v3 extensions of a certificate for its purpose. Authority: a CA limited to signing end-entity
 * certificates (ISO 18013-5 IACA shape: basic constraints CA with path length 0, keyCertSign and cRLSign). Issuance:
 * an ISO 18013-5 document signer (digitalSignature, the mDL DS extended key usage). Verification: digitalSignature;
 * its DNS names are the `x509_san_dns` client identifiers the verifier may use.
 */
export function extensionsFor(purpose: X509Purpose, options: ProfileOptions): X509CertificateExtensionsOptions {
  const names = [
    ...options.sanDnsNames.map((value) => ({ type: 'dns' as const, value })),
    ...options.sanUriNames.map((value) => ({ type: 'url' as const, value })),
  ]
  const common: X509CertificateExtensionsOptions = {
    subjectKeyIdentifier: { include: true },
    ...(options.hasAuthority ? { authorityKeyIdentifier: { include: true } } : {}),
    ...(names.length > 0 ? { subjectAlternativeName: { name: names } } : {}),
  }
  switch (purpose) {
    case 'authority':
      return {
        ...common,
        basicConstraints: { ca: true, pathLenConstraint: 0, markAsCritical: true },
        keyUsage: { usages: [X509KeyUsage.KeyCertSign, X509KeyUsage.CrlSign], markAsCritical: true },
      }
    case 'issuance':
      return {
        ...common,
        keyUsage: { usages: [X509KeyUsage.DigitalSignature], markAsCritical: true },
        extendedKeyUsage: { usages: [X509ExtendedKeyUsage.MdlDs], markAsCritical: true },
      }
    case 'verification':
      return { ...common, keyUsage: { usages: [X509KeyUsage.DigitalSignature], markAsCritical: true } }
  }
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/

/**
 * Certificates from text: one or more PEM blocks, or a single base64 (or base64url) DER. Returns base64 DER, in
 * the order given.
 * @throws {InvalidInputError} when the text holds neither
 */
export function splitEncodedCertificates(text: string, field = 'certificate'): string[] {
  if (typeof text !== 'string' || text.trim() === '') {
    throw new InvalidInputError(`${field} is required`, [{ field, message: 'must be a PEM or base64 DER certificate' }])
  }
  const blocks = [...text.matchAll(PEM_BLOCK)].map((match) => match[1].replace(/\s+/g, ''))
  if (blocks.length > 0) return blocks.map((block) => toStandardBase64(block, field))
  const compact = text.replace(/\s+/g, '')
  return [toStandardBase64(compact, field)]
}

function toStandardBase64(value: string, field: string): string {
  if (!BASE64.test(value)) {
    throw new InvalidInputError(`${field} is not a certificate`, [
      { field, message: 'must be a PEM or base64 DER certificate' },
    ])
  }
  return Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('base64')
}
