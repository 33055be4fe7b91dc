import {
  BaseRecord,
  EventEmitter,
  inject,
  injectable,
  InjectionSymbols,
  Repository,
  type StorageService,
} from '@credo-ts/core'
import { assignRecordProps, type RecordIdentity } from '../../credo/record-props'

/** The key types an organization's certificates may have (OID4VC: ES256 and EdDSA). */
export const X509_KEY_TYPES = ['P-256', 'Ed25519'] as const
export type X509KeyType = (typeof X509_KEY_TYPES)[number]

/**
 * What a certificate is for; one certificate per purpose is active at a time (issue 29):
 * - `issuance`: signs mdocs (an ISO 18013-5 document signer) and SD-JWT VCs of templates signed by x509;
 * - `verification`: signs OID4VP authorization requests (`x509_san_dns` client identifier);
 * - `authority`: a CA certificate that signs the organization's other certificates (an IACA).
 */
export const X509_PURPOSES = ['issuance', 'verification', 'authority'] as const
export type X509Purpose = (typeof X509_PURPOSES)[number]

export type X509CertificateStatus = 'active' | 'inactive'

export interface X509CertificateRecordProps extends RecordIdentity {
  keyId: string
  keyType: X509KeyType
  purpose: X509Purpose
  status: X509CertificateStatus
  /** The certificate, base64 DER. */
  certificate: string
  /** The certificates above it up to the root, base64 DER, nearest first; empty when self-signed. */
  chain: string[]
  subject: string
  issuer: string
  serialNumber: string
  /** ISO 8601. */
  notBefore: string
  /** ISO 8601. */
  notAfter: string
  sanDnsNames: string[]
  sanUriNames: string[]
  /** The organization's authority certificate that signed it, when it was created under one. */
  issuerCertificateId?: string
  /** Imported with its private key rather than created here. */
  isImported: boolean
}

export type X509CertificateRecordTags = {
  purpose: X509Purpose
  status: X509CertificateStatus
  keyType: X509KeyType
  keyId: string
}

/** An x509 certificate of the organization whose private key is in the agent's KMS. */
export class X509CertificateRecord extends BaseRecord<X509CertificateRecordTags> {
  public static override readonly type = 'IdplaneX509CertificateRecord'
  public override readonly type = X509CertificateRecord.type

  public keyId = ''
  public keyType: X509KeyType = 'P-256'
  public purpose: X509Purpose = 'issuance'
  public status: X509CertificateStatus = 'inactive'
  public certificate = ''
  public chain: string[] = []
  public subject = ''
  public issuer = ''
  public serialNumber = ''
  public notBefore = ''
  public notAfter = ''
  public sanDnsNames: string[] = []
  public sanUriNames: string[] = []
  public issuerCertificateId?: string
  public isImported = false

  public constructor(props?: X509CertificateRecordProps) {
    super()
    assignRecordProps(this, props)
  }

  public getTags(): X509CertificateRecordTags {
    return { ...this._tags, purpose: this.purpose, status: this.status, keyType: this.keyType, keyId: this.keyId }
  }
}

@injectable()
export class X509CertificateRepository extends Repository<X509CertificateRecord> {
  public constructor(
    @inject(InjectionSymbols.StorageService) storage: StorageService<X509CertificateRecord>,
    eventEmitter: EventEmitter,
  ) {
    super(X509CertificateRecord, storage, eventEmitter)
  }
}
