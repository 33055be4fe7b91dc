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

export interface X509TrustAnchorRecordProps extends RecordIdentity {
  /** base64 DER. */
  certificate: string
  /** SHA-256 of the DER, hex: one anchor per certificate. */
  fingerprint: string
  subject: string
  /** ISO 8601. */
  notBefore: string
  /** ISO 8601. */
  notAfter: string
  label?: string
}

export type X509TrustAnchorRecordTags = { fingerprint: string }

/**
 * A certificate the organization trusts when it verifies: credentials signed under it (mdoc, SD-JWT VC with x5c),
 * and, as a holder, verifiers' authorization requests signed under it.
 */
export class X509TrustAnchorRecord extends BaseRecord<X509TrustAnchorRecordTags> {
  public static override readonly type = 'IdplaneX509TrustAnchorRecord'
  public override readonly type = X509TrustAnchorRecord.type

  public certificate = ''
  public fingerprint = ''
  public subject = ''
  public notBefore = ''
  public notAfter = ''
  public label?: string

  public constructor(props?: X509TrustAnchorRecordProps) {
    super()
    assignRecordProps(this, props)
  }

  public getTags(): X509TrustAnchorRecordTags {
    return { ...this._tags, fingerprint: this.fingerprint }
  }
}

@injectable()
export class X509TrustAnchorRepository extends Repository<X509TrustAnchorRecord> {
  public constructor(
    @inject(InjectionSymbols.StorageService) storage: StorageService<X509TrustAnchorRecord>,
    eventEmitter: EventEmitter,
  ) {
    super(X509TrustAnchorRecord, storage, eventEmitter)
  }
}
