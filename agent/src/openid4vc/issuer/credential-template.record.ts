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

/** The credential formats a template may issue (OID4VCI 1.0 format identifiers). */
export const CREDENTIAL_FORMATS = ['dc+sd-jwt', 'mso_mdoc', 'jwt_vc_json'] as const
export type CredentialFormat = (typeof CREDENTIAL_FORMATS)[number]

export interface ClaimDisplay {
  name: string
  locale?: string
}

/** One claim of a template, described as OID4VCI 1.0 claims descriptions are (`path`, `mandatory`, `display`). */
export interface TemplateClaim {
  /** dc+sd-jwt and jwt_vc_json: the member names down to the claim; mso_mdoc: `[namespace, elementIdentifier]`. */
  path: string[]
  /** The offer must give a value. @default false */
  mandatory?: boolean
  /** dc+sd-jwt only: issued as a disclosure the holder may withhold. @default true */
  selectivelyDisclosable?: boolean
  display?: ClaimDisplay[]
}

export interface CredentialDisplay {
  name: string
  locale?: string
  description?: string
  backgroundColor?: string
  textColor?: string
  /** https or data URL. */
  logoUri?: string
  logoAltText?: string
}

/** Who signs: a DID of the organization (its first assertion key), or its active `issuance` x509 certificate. */
export type TemplateSigner = { method: 'did'; did: string } | { method: 'x5c' }

/**
 * How a holder is authorized to receive the credential. `pre-authorized`: the offer carries a pre-authorized code
 * (and optionally a transaction code). `presentation`: the authorization code flow, where the agent's own
 * authorization server grants the code once the wallet presented credentials answering `dcql` (Credo 0.6.3 has no
 * other built-in way to authenticate the holder). `external`: the authorization code flow at an external OAuth 2
 * authorization server the issuer lists.
 */
export type TemplateAuthorization =
  | { type: 'pre-authorized' }
  | { type: 'presentation'; dcql: Record<string, unknown> }
  | { type: 'external'; authorizationServerUrl: string }

export interface CredentialTemplateRecordProps extends RecordIdentity {
  /** The public id of the OID4VC issuer the template belongs to. */
  issuerId: string
  name: string
  description?: string
  format: CredentialFormat
  /** dc+sd-jwt: the credential type. */
  vct?: string
  /** mso_mdoc: the document type. */
  doctype?: string
  /** jwt_vc_json: the W3C types, `VerifiableCredential` first. */
  types?: string[]
  claims: TemplateClaim[]
  signer: TemplateSigner
  display?: CredentialDisplay[]
  /** Credentials expire this many days after issuance; none when absent. */
  validityDays?: number
  authorization: TemplateAuthorization
}

export type CredentialTemplateRecordTags = { issuerId: string; name: string; format: CredentialFormat }

/**
 * What one kind of credential of an issuer looks like: its format and type, its claims (which are mandatory and
 * which selectively disclosable), who signs it and how holders are authorized. Each template is one entry of the
 * issuer's `credential_configurations_supported`, under the template's id.
 */
export class CredentialTemplateRecord extends BaseRecord<CredentialTemplateRecordTags> {
  public static override readonly type = 'IdplaneCredentialTemplateRecord'
  public override readonly type = CredentialTemplateRecord.type

  public issuerId = ''
  public name = ''
  public description?: string
  public format: CredentialFormat = 'dc+sd-jwt'
  public vct?: string
  public doctype?: string
  public types?: string[]
  public claims: TemplateClaim[] = []
  public signer: TemplateSigner = { method: 'x5c' }
  public display?: CredentialDisplay[]
  public validityDays?: number
  public authorization: TemplateAuthorization = { type: 'pre-authorized' }

  public constructor(props?: CredentialTemplateRecordProps) {
    super()
    assignRecordProps(this, props)
  }

  public getTags(): CredentialTemplateRecordTags {
    return { ...this._tags, issuerId: this.issuerId, name: this.name, format: this.format }
  }
}

@injectable()
export class CredentialTemplateRepository extends Repository<CredentialTemplateRecord> {
  public constructor(
    @inject(InjectionSymbols.StorageService) storage: StorageService<CredentialTemplateRecord>,
    eventEmitter: EventEmitter,
  ) {
    super(CredentialTemplateRecord, storage, eventEmitter)
  }
}
