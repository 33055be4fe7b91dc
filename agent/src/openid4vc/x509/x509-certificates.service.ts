import { createHash, createPrivateKey, X509Certificate as StrictX509Certificate } from 'node:crypto'

import { type AgentContext, injectable, Kms, X509Certificate, X509Service } from '@credo-ts/core'
import { ConflictError, InvalidInputError, InvalidStateError, NotFoundError } from '@idplane/common'

import { distinguishedName, extensionsFor, splitEncodedCertificates, type X509NameInput } from './certificate-profile'
import {
  X509_KEY_TYPES,
  X509_PURPOSES,
  X509CertificateRecord,
  X509CertificateRepository,
  type X509CertificateStatus,
  type X509KeyType,
  type X509Purpose,
} from './x509-certificate.record'
import { X509TrustAnchorRecord, X509TrustAnchorRepository } from './x509-trust-anchor.record'

/** @default 365 days, when a certificate is created without `notAfter` */
export const DEFAULT_CERTIFICATE_VALIDITY_DAYS = 365

const DAY_MS = 24 * 60 * 60 * 1000

export interface CreateX509CertificateInput {
  keyType: X509KeyType
  purpose: X509Purpose
  subject: X509NameInput
  sanDnsNames?: string[]
  sanUriNames?: string[]
  /** @default now */
  notBefore?: Date
  /** @default notBefore + DEFAULT_CERTIFICATE_VALIDITY_DAYS */
  notAfter?: Date
  /** An active `authority` certificate of the organization to sign it; self-signed when absent. */
  issuerCertificateId?: string
}

export interface ImportX509CertificateInput {
  purpose: X509Purpose
  /** PEM (the certificate first, then the certificates above it) or one base64 DER certificate. */
  certificate: string
  /** The certificate's private key: PKCS#8 PEM, or a private JWK. */
  privateKey: string | Record<string, unknown>
}

export interface AddTrustAnchorInput {
  certificate: string
  label?: string
}

/**
 * The organization's x509 certificates (keys in the agent's KMS) and trust anchors: creation (self-signed or under
 * one of its authority certificates), import with a private key, one active certificate per purpose, and the
 * certificates its verifications trust.
 */
@injectable()
export class X509CertificatesService {
  public constructor(
    private readonly certificates: X509CertificateRepository,
    private readonly anchors: X509TrustAnchorRepository,
  ) {}

  /**
   * Creates a key and a certificate for it. The certificate becomes the active one for its purpose when none is.
   * @throws {InvalidInputError} for a bad name, dates or purpose
   * @throws {NotFoundError} for an unknown issuer certificate
   * @throws {InvalidStateError} for an issuer certificate that is not an active, valid authority certificate
   */
  public async create(agentContext: AgentContext, input: CreateX509CertificateInput): Promise<X509CertificateRecord> {
    assertKeyType(input.keyType)
    assertPurpose(input.purpose)
    const subject = distinguishedName(input.subject)
    const sanDnsNames = checkNames(input.sanDnsNames, 'sanDnsNames', isDnsName)
    const sanUriNames = checkNames(input.sanUriNames, 'sanUriNames', isUri)
    if (input.purpose === 'verification' && sanDnsNames.length === 0) {
      throw new InvalidInputError('A verification certificate needs a DNS name', [
        { field: 'sanDnsNames', message: 'must name the verifier host (x509_san_dns)' },
      ])
    }
    const authority = input.issuerCertificateId
      ? await this.usableAuthority(agentContext, input.issuerCertificateId)
      : undefined
    // Certificates hold whole seconds.
    const notBefore = wholeSeconds(input.notBefore ?? new Date())
    const defaultNotAfter = new Date(notBefore.getTime() + DEFAULT_CERTIFICATE_VALIDITY_DAYS * DAY_MS)
    const authorityNotAfter = authority ? new Date(authority.notAfter) : undefined
    const notAfter = wholeSeconds(
      input.notAfter ??
        (authorityNotAfter && authorityNotAfter < defaultNotAfter ? authorityNotAfter : defaultNotAfter),
    )
    if (!(notAfter.getTime() > notBefore.getTime())) {
      throw new InvalidInputError('Invalid validity', [{ field: 'notAfter', message: 'must be after notBefore' }])
    }
    if (authorityNotAfter && notAfter.getTime() > authorityNotAfter.getTime()) {
      throw new InvalidInputError('The certificate would outlive its issuer', [
        { field: 'notAfter', message: `must not be after the issuer certificate's notAfter (${authority?.notAfter})` },
      ])
    }

    const kms = agentContext.resolve(Kms.KeyManagementApi)
    const created = await kms.createKey({ type: keyTypeJwk(input.keyType) })
    const subjectPublicJwk = Kms.PublicJwk.fromPublicJwk(created.publicJwk)
    subjectPublicJwk.keyId = created.keyId
    const authorityPublicJwk = authority ? credoCertificate(authority).publicJwk : subjectPublicJwk
    const certificate = await X509Service.createCertificate(agentContext, {
      authorityKey: authorityPublicJwk,
      subjectPublicKey: authority ? subjectPublicJwk : undefined,
      issuer: authority ? authority.subject : subject,
      subject: authority ? subject : undefined,
      validity: { notBefore, notAfter },
      extensions: extensionsFor(input.purpose, { sanDnsNames, sanUriNames, hasAuthority: authority !== undefined }),
    })
    return this.store(agentContext, {
      certificate,
      keyId: created.keyId,
      keyType: input.keyType,
      purpose: input.purpose,
      chain: authority ? [authority.certificate, ...authority.chain] : [],
      issuerCertificateId: authority?.id,
      isImported: false,
    })
  }

  /**
   * Imports a certificate with its private key (a CA-issued certificate, say). The key must match the certificate.
   * @throws {InvalidInputError} for text that is not a certificate or key, a key of another type or a mismatch
   */
  public async import(agentContext: AgentContext, input: ImportX509CertificateInput): Promise<X509CertificateRecord> {
    assertPurpose(input.purpose)
    const [leaf, ...chain] = splitEncodedCertificates(input.certificate).map((encoded) => parseCertificate(encoded))
    for (const certificate of [leaf, ...chain]) {
      const refusal = openSslRefusal(certificate.toString('base64'))
      if (refusal) {
        throw new InvalidInputError(
          `The certificate is not strict DER, which OpenSSL-based wallets refuse: ${refusal}`,
          [{ field: 'certificate', message: 'must be readable by OpenSSL' }],
        )
      }
    }
    const keyType = keyTypeOf(leaf.publicJwk)
    const privateJwk = readPrivateJwk(input.privateKey)
    if (!samePublicKey(privateJwk, leaf.publicJwk.toJson())) {
      throw new InvalidInputError('The private key does not belong to the certificate', [
        { field: 'privateKey', message: "must be the certificate's private key" },
      ])
    }
    const imported = await agentContext.resolve(Kms.KeyManagementApi).importKey({ privateJwk })
    return this.store(agentContext, {
      certificate: leaf,
      keyId: imported.keyId,
      keyType,
      purpose: input.purpose,
      chain: chain.map((certificate) => certificate.toString('base64')),
      isImported: true,
    })
  }

  public async list(
    agentContext: AgentContext,
    filter: { purpose?: X509Purpose; status?: X509CertificateStatus } = {},
  ): Promise<X509CertificateRecord[]> {
    const query = {
      ...(filter.purpose ? { purpose: filter.purpose } : {}),
      ...(filter.status ? { status: filter.status } : {}),
    }
    const records = await this.certificates.findByQuery(agentContext, query)
    return records.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
  }

  /** @throws {NotFoundError} */
  public async get(agentContext: AgentContext, id: string): Promise<X509CertificateRecord> {
    const record = await this.certificates.findById(agentContext, id)
    if (!record) throw new NotFoundError('x509 certificate not found')
    return record
  }

  /**
   * Makes the certificate the active one for its purpose; the one active before becomes inactive.
   * @throws {NotFoundError}
   * @throws {InvalidStateError} for an expired certificate, or one OpenSSL cannot read
   */
  public async activate(agentContext: AgentContext, id: string): Promise<X509CertificateRecord> {
    const record = await this.get(agentContext, id)
    if (new Date(record.notAfter).getTime() <= Date.now()) {
      throw new InvalidStateError('An expired certificate cannot be activated')
    }
    // Certificates created before 2026-11-30 had, one in 512, a serial number OpenSSL refuses (docs/decisions.md,
    // "x509 serial numbers"): such a one is not made active again.
    const refusal = openSslRefusal(record.certificate)
    if (refusal) {
      throw new InvalidStateError(
        `This certificate cannot be read by OpenSSL-based wallets and verifiers (${refusal}); create a new one`,
      )
    }
    for (const other of await this.certificates.findByQuery(agentContext, {
      purpose: record.purpose,
      status: 'active',
    })) {
      if (other.id === record.id) continue
      other.status = 'inactive'
      await this.certificates.update(agentContext, other)
    }
    if (record.status !== 'active') {
      record.status = 'active'
      await this.certificates.update(agentContext, record)
    }
    return record
  }

  /** @throws {NotFoundError} */
  public async deactivate(agentContext: AgentContext, id: string): Promise<X509CertificateRecord> {
    const record = await this.get(agentContext, id)
    if (record.status !== 'inactive') {
      record.status = 'inactive'
      await this.certificates.update(agentContext, record)
    }
    return record
  }

  /**
   * The active certificate for a purpose.
   * @throws {InvalidStateError} when there is none, or it has expired
   */
  public async activeFor(agentContext: AgentContext, purpose: X509Purpose): Promise<X509CertificateRecord> {
    const [record] = await this.certificates.findByQuery(agentContext, { purpose, status: 'active' })
    if (!record) throw new InvalidStateError(`The organization has no active x509 certificate for ${purpose}`)
    return record
  }

  /**
   * Adds a certificate the organization trusts when it verifies.
   * @throws {InvalidInputError} for text that is not one certificate
   * @throws {ConflictError} when it is already a trust anchor
   */
  public async addTrustAnchor(agentContext: AgentContext, input: AddTrustAnchorInput): Promise<X509TrustAnchorRecord> {
    const encoded = splitEncodedCertificates(input.certificate)
    if (encoded.length !== 1) {
      throw new InvalidInputError('One certificate per trust anchor', [
        { field: 'certificate', message: 'must hold exactly one certificate' },
      ])
    }
    const certificate = parseCertificate(encoded[0])
    const fingerprint = fingerprintOf(encoded[0])
    if (await this.anchors.findSingleByQuery(agentContext, { fingerprint })) {
      throw new ConflictError('This certificate is already a trust anchor')
    }
    const { data } = certificate
    const record = new X509TrustAnchorRecord({
      certificate: certificate.toString('base64'),
      fingerprint,
      subject: data.subject,
      notBefore: data.notBefore.toISOString(),
      notAfter: data.notAfter.toISOString(),
      label: input.label,
    })
    await this.anchors.save(agentContext, record)
    return record
  }

  public async listTrustAnchors(agentContext: AgentContext): Promise<X509TrustAnchorRecord[]> {
    const records = await this.anchors.getAll(agentContext)
    return records.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
  }

  /** @throws {NotFoundError} */
  public async removeTrustAnchor(agentContext: AgentContext, id: string): Promise<void> {
    const record = await this.anchors.findById(agentContext, id)
    if (!record) throw new NotFoundError('Trust anchor not found')
    await this.anchors.delete(agentContext, record)
  }

  /**
   * What this organization's verifications trust (Credo's X509 trust callback): its trust anchors and its own
   * certificates (the root of each one's chain), so it verifies what it issues itself. Expiry is checked by the chain
   * validation that uses them.
   */
  public async trustedCertificates(agentContext: AgentContext): Promise<string[]> {
    const own = await this.certificates.getAll(agentContext)
    const anchors = await this.anchors.getAll(agentContext)
    const trusted = new Set<string>()
    for (const record of own)
      trusted.add(record.chain.length > 0 ? record.chain[record.chain.length - 1] : record.certificate)
    for (const anchor of anchors) trusted.add(anchor.certificate)
    return [...trusted]
  }

  /** The certificate chain to sign with (the leaf carries the KMS key id), leaf first. */
  public signingChain(record: X509CertificateRecord): X509Certificate[] {
    return [credoCertificate(record), ...record.chain.map((encoded) => X509Certificate.fromEncodedCertificate(encoded))]
  }

  private async usableAuthority(agentContext: AgentContext, id: string): Promise<X509CertificateRecord> {
    const authority = await this.certificates.findById(agentContext, id)
    if (!authority) throw new NotFoundError('Issuer certificate not found')
    if (authority.purpose !== 'authority')
      throw new InvalidStateError('The issuer certificate is not an authority certificate')
    if (authority.status !== 'active') throw new InvalidStateError('The issuer certificate is not active')
    if (new Date(authority.notAfter).getTime() <= Date.now())
      throw new InvalidStateError('The issuer certificate has expired')
    return authority
  }

  private async store(
    agentContext: AgentContext,
    options: {
      certificate: X509Certificate
      keyId: string
      keyType: X509KeyType
      purpose: X509Purpose
      chain: string[]
      issuerCertificateId?: string
      isImported: boolean
    },
  ): Promise<X509CertificateRecord> {
    const { certificate } = options
    const { data } = certificate
    const hasActive =
      (await this.certificates.findByQuery(agentContext, { purpose: options.purpose, status: 'active' })).length > 0
    const isValidNow = data.notAfter.getTime() > Date.now()
    const record = new X509CertificateRecord({
      keyId: options.keyId,
      keyType: options.keyType,
      purpose: options.purpose,
      status: !hasActive && isValidNow ? 'active' : 'inactive',
      certificate: certificate.toString('base64'),
      chain: options.chain,
      subject: data.subject,
      issuer: data.issuer,
      serialNumber: data.serialNumber,
      notBefore: data.notBefore.toISOString(),
      notAfter: data.notAfter.toISOString(),
      sanDnsNames: certificate.sanDnsNames,
      sanUriNames: certificate.sanUriNames,
      issuerCertificateId: options.issuerCertificateId,
      isImported: options.isImported,
    })
    await this.certificates.save(agentContext, record)
    return record
  }
}

/** The record's certificate as Credo's class, its public key bound to the KMS key. */
export function credoCertificate(record: X509CertificateRecord): X509Certificate {
  const certificate = X509Certificate.fromEncodedCertificate(record.certificate)
  certificate.keyId = record.keyId
  return certificate
}

function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000)
}

export function fingerprintOf(base64Der: string): string {
  return createHash('sha256').update(Buffer.from(base64Der, 'base64')).digest('hex')
}

/** Why OpenSSL (Node's X509Certificate, strict DER) refuses the base64 DER certificate; undefined when it reads it. */
function openSslRefusal(base64Der: string): string | undefined {
  try {
    new StrictX509Certificate(Buffer.from(base64Der, 'base64'))
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

function parseCertificate(encoded: string): X509Certificate {
  try {
    return X509Certificate.fromEncodedCertificate(encoded)
  } catch (error) {
    throw new InvalidInputError('Not an x509 certificate', [{ field: 'certificate', message: 'could not be parsed' }], {
      cause: error,
    })
  }
}

function keyTypeJwk(keyType: X509KeyType): Kms.KmsCreateKeyTypeAssymetric {
  return keyType === 'P-256' ? { kty: 'EC', crv: 'P-256' } : { kty: 'OKP', crv: 'Ed25519' }
}

function keyTypeOf(publicJwk: Kms.PublicJwk): X509KeyType {
  const jwk = publicJwk.toJson()
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return 'P-256'
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'Ed25519'
  throw new InvalidInputError('Unsupported key type', [
    { field: 'certificate', message: `the key must be ${X509_KEY_TYPES.join(' or ')}` },
  ])
}

function readPrivateJwk(input: string | Record<string, unknown>): Kms.KmsJwkPrivate {
  try {
    const key =
      typeof input === 'string' ? createPrivateKey(input) : createPrivateKey({ key: input as never, format: 'jwk' })
    const jwk = key.export({ format: 'jwk' }) as Record<string, string>
    if (jwk.kty === 'EC' && jwk.crv === 'P-256') return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d }
    if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return { kty: 'OKP', crv: 'Ed25519', x: jwk.x, d: jwk.d }
  } catch (error) {
    throw new InvalidInputError(
      'Not a private key',
      [{ field: 'privateKey', message: 'must be a PKCS#8 PEM or a private JWK' }],
      {
        cause: error,
      },
    )
  }
  throw new InvalidInputError('Unsupported key type', [
    { field: 'privateKey', message: `must be a ${X509_KEY_TYPES.join(' or ')} key` },
  ])
}

function samePublicKey(a: Kms.KmsJwkPrivate, b: Kms.KmsJwkPublic): boolean {
  if (a.kty !== b.kty) return false
  if (a.kty === 'EC' && b.kty === 'EC') return a.crv === b.crv && a.x === b.x && a.y === b.y
  if (a.kty === 'OKP' && b.kty === 'OKP') return a.crv === b.crv && a.x === b.x
  return false
}

function assertKeyType(keyType: unknown): asserts keyType is X509KeyType {
  if (!(X509_KEY_TYPES as readonly unknown[]).includes(keyType)) {
    throw new InvalidInputError('Unsupported key type', [
      { field: 'keyType', message: `must be one of ${X509_KEY_TYPES.join(', ')}` },
    ])
  }
}

function assertPurpose(purpose: unknown): asserts purpose is X509Purpose {
  if (!(X509_PURPOSES as readonly unknown[]).includes(purpose)) {
    throw new InvalidInputError('Unknown purpose', [
      { field: 'purpose', message: `must be one of ${X509_PURPOSES.join(', ')}` },
    ])
  }
}

function checkNames(names: string[] | undefined, field: string, isValid: (name: string) => boolean): string[] {
  if (names === undefined) return []
  if (!Array.isArray(names) || names.length > 20 || names.some((name) => typeof name !== 'string' || !isValid(name))) {
    throw new InvalidInputError(`Invalid ${field}`, [{ field, message: 'must be a list of at most 20 valid names' }])
  }
  return names
}

/** A host name (letters, digits, hyphens; dot-separated labels of at most 63), as a SAN dNSName holds it. */
export function isDnsName(name: string): boolean {
  return name.length <= 253 && /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*$/.test(name)
}

function isUri(value: string): boolean {
  try {
    return new URL(value).protocol.length > 1
  } catch {
    return false
  }
}
