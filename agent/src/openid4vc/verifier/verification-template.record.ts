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

/** What a verifier asks for: a DCQL query, or a DIF Presentation Exchange (v2) definition. */
export type VerificationQuery =
  | { type: 'dcql'; dcql: Record<string, unknown> }
  | { type: 'presentation-exchange'; definition: Record<string, unknown> }

export const RESPONSE_MODES = ['direct_post', 'direct_post.jwt'] as const
export type ResponseMode = (typeof RESPONSE_MODES)[number]

/**
 * How the authorization request is signed, which also gives the verifier's client identifier: `x5c` with the active
 * verification certificate (`x509_san_dns:<host>`, or `x509_hash:<hash>` under HAIP), or `did` with one of the
 * organization's DIDs (`decentralized_identifier:<did>`).
 */
export type RequestSigner = { method: 'x5c' } | { method: 'did'; did: string }

export interface VerificationTemplateProps extends RecordIdentity {
  name: string
  description?: string
  query: VerificationQuery
  /** @default 'direct_post.jwt' */
  responseMode?: ResponseMode
  signer?: RequestSigner
  /** OpenID4VC High Assurance Interoperability Profile: DCQL, direct_post.jwt, x509_hash. */
  isHaip?: boolean
}

export type VerificationTemplateTags = { name: string }

/** A stored presentation request an organization reuses: the query and how the request is made. */
export class VerificationTemplateRecord extends BaseRecord<VerificationTemplateTags> {
  public static override readonly type = 'IdplaneVerificationTemplateRecord'
  public override readonly type = VerificationTemplateRecord.type

  public name = ''
  public description?: string
  public query: VerificationQuery = { type: 'dcql', dcql: {} }
  public responseMode?: ResponseMode
  public signer?: RequestSigner
  public isHaip?: boolean

  public constructor(props?: VerificationTemplateProps) {
    super()
    assignRecordProps(this, props)
  }

  public getTags(): VerificationTemplateTags {
    return { ...this._tags, name: this.name }
  }
}

@injectable()
export class VerificationTemplateRepository extends Repository<VerificationTemplateRecord> {
  public constructor(
    @inject(InjectionSymbols.StorageService) storage: StorageService<VerificationTemplateRecord>,
    eventEmitter: EventEmitter,
  ) {
    super(VerificationTemplateRecord, storage, eventEmitter)
  }
}
