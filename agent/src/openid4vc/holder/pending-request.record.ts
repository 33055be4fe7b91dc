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

export interface PendingAuthorizationRequestProps extends RecordIdentity {
  /** The authorization request's payload, its signature already verified when it was resolved. */
  payload: Record<string, unknown>
  verifier: { clientId: string; clientIdPrefix: string }
  /** ISO 8601: the request's `exp`, or a few minutes after it was resolved. */
  expiresAt: string
}

/**
 * An authorization request the wallet resolved and shows its holder, waiting for consent. A verifier serves its
 * request object once, so the wallet keeps it (verified) until the holder answers or it expires.
 */
export class PendingAuthorizationRequestRecord extends BaseRecord {
  public static override readonly type = 'IdplanePendingAuthorizationRequestRecord'
  public override readonly type = PendingAuthorizationRequestRecord.type

  public payload: Record<string, unknown> = {}
  public verifier = { clientId: '', clientIdPrefix: '' }
  public expiresAt = ''

  public constructor(props?: PendingAuthorizationRequestProps) {
    super()
    assignRecordProps(this, props)
  }

  public getTags() {
    return { ...this._tags }
  }
}

@injectable()
export class PendingAuthorizationRequestRepository extends Repository<PendingAuthorizationRequestRecord> {
  public constructor(
    @inject(InjectionSymbols.StorageService) storage: StorageService<PendingAuthorizationRequestRecord>,
    eventEmitter: EventEmitter,
  ) {
    super(PendingAuthorizationRequestRecord, storage, eventEmitter)
  }
}
