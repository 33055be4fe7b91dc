import { type AgentContext, injectable } from '@credo-ts/core'
import { type OpenId4VcIssuerRecord, OpenId4VcIssuerModuleConfig, OpenId4VcIssuerService } from '@credo-ts/openid4vc'
import { ConflictError, type FieldError, InvalidInputError, NotFoundError } from '@idplane/common'

import { MAX_BATCH_SIZE } from './batch-size'
import { credentialConfigurationFor } from './credential-configuration'
import { IssuerRecordRepository } from './issuer-record.repository'
import { CredentialTemplateRepository } from './credential-template.record'
import { isHttpUrl } from './template-input'

export interface IssuerDisplay {
  name: string
  locale?: string
  /** https or data URL. */
  logoUri?: string
  logoAltText?: string
}

export interface IssuerInput {
  /** The public id, part of the issuer's URL; a uuid when absent. */
  issuerId?: string
  display?: IssuerDisplay[]
  /** Most credentials of one configuration a wallet may get in one request (batch issuance). @default 1 */
  batchSize?: number
  /** External OAuth 2 authorization servers the issuer accepts access tokens of (templates of type `external`). */
  authorizationServers?: string[]
}

const ISSUER_ID = /^[A-Za-z0-9._~-]{1,100}$/

/**
 * The organization's OID4VCI issuers (Credo's issuer records, served at `<base>/oid4vci/<issuerId>`). Their
 * `credential_configurations_supported` is always derived from their templates (`syncMetadata`).
 */
@injectable()
export class IssuersService {
  public constructor(
    private readonly issuers: IssuerRecordRepository,
    private readonly issuerService: OpenId4VcIssuerService,
    private readonly templates: CredentialTemplateRepository,
    private readonly config: OpenId4VcIssuerModuleConfig,
  ) {}

  /**
   * @throws {InvalidInputError}
   * @throws {ConflictError} for an issuer id in use
   */
  public async create(agentContext: AgentContext, input: IssuerInput): Promise<OpenId4VcIssuerRecord> {
    checkIssuerInput(input)
    if (input.issuerId && (await this.issuers.findSingleByQuery(agentContext, { issuerId: input.issuerId }))) {
      throw new ConflictError('An issuer with this id exists')
    }
    return this.issuerService.createIssuer(agentContext, {
      issuerId: input.issuerId,
      display: toDisplay(input.display),
      credentialConfigurationsSupported: {},
      batchCredentialIssuance: batchOf(input.batchSize),
      authorizationServerConfigs: authorizationServersOf(input.authorizationServers),
    })
  }

  public async list(agentContext: AgentContext): Promise<OpenId4VcIssuerRecord[]> {
    const records = await this.issuers.getAll(agentContext)
    return records.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
  }

  /** @throws {NotFoundError} */
  public async get(agentContext: AgentContext, issuerId: string): Promise<OpenId4VcIssuerRecord> {
    const record = await this.issuers.findSingleByQuery(agentContext, { issuerId })
    if (!record) throw new NotFoundError('Issuer not found')
    return record
  }

  /**
   * Replaces the display, batch size and authorization servers (the id stays).
   * @throws {NotFoundError}
   * @throws {InvalidInputError}
   */
  public async update(
    agentContext: AgentContext,
    issuerId: string,
    input: Omit<IssuerInput, 'issuerId'>,
  ): Promise<OpenId4VcIssuerRecord> {
    checkIssuerInput(input)
    const record = await this.get(agentContext, issuerId)
    record.display = toDisplay(input.display)
    record.batchCredentialIssuance = batchOf(input.batchSize)
    record.authorizationServerConfigs = authorizationServersOf(input.authorizationServers)
    await this.issuerService.updateIssuer(agentContext, record)
    return record
  }

  /**
   * Removes the issuer and its templates; offers already made can no longer be redeemed.
   * @throws {NotFoundError}
   */
  public async delete(agentContext: AgentContext, issuerId: string): Promise<void> {
    const record = await this.get(agentContext, issuerId)
    for (const template of await this.templates.findByQuery(agentContext, { issuerId })) {
      await this.templates.delete(agentContext, template)
    }
    await this.issuers.delete(agentContext, record)
  }

  /** Rebuilds `credential_configurations_supported` from the issuer's templates. */
  public async syncMetadata(agentContext: AgentContext, issuerId: string): Promise<void> {
    const record = await this.get(agentContext, issuerId)
    const templates = await this.templates.findByQuery(agentContext, { issuerId })
    record.credentialConfigurationsSupported = Object.fromEntries(
      templates.map((template) => [template.id, credentialConfigurationFor(template)]),
    ) as OpenId4VcIssuerRecord['credentialConfigurationsSupported']
    await this.issuerService.updateIssuer(agentContext, record)
  }

  /** The issuer's public URL (its `credential_issuer`). */
  public credentialIssuerUrl(issuerId: string): string {
    return `${this.config.baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(issuerId)}`
  }
}

function checkIssuerInput(input: IssuerInput): void {
  const problems: FieldError[] = []
  if (input.issuerId !== undefined && (typeof input.issuerId !== 'string' || !ISSUER_ID.test(input.issuerId))) {
    problems.push({ field: 'issuerId', message: 'must be 1 to 100 URL-safe characters (letters, digits, . _ ~ -)' })
  }
  if (
    input.batchSize !== undefined &&
    !(Number.isInteger(input.batchSize) && input.batchSize >= 1 && input.batchSize <= MAX_BATCH_SIZE)
  ) {
    problems.push({ field: 'batchSize', message: `must be a whole number from 1 to ${MAX_BATCH_SIZE}` })
  }
  if (input.display !== undefined) {
    if (!Array.isArray(input.display) || input.display.length > 20)
      problems.push({ field: 'display', message: 'must be a list of at most 20 entries' })
    else
      input.display.forEach((entry, index) => {
        if (typeof entry?.name !== 'string' || entry.name.trim() === '' || entry.name.length > 256) {
          problems.push({ field: `display[${index}].name`, message: 'is required' })
        }
        if (entry?.logoUri !== undefined && !/^(https:\/\/|data:)/.test(String(entry.logoUri))) {
          problems.push({ field: `display[${index}].logoUri`, message: 'must be an https or data URL' })
        }
      })
  }
  if (input.authorizationServers !== undefined) {
    if (
      !Array.isArray(input.authorizationServers) ||
      input.authorizationServers.length > 10 ||
      !input.authorizationServers.every(isHttpUrl)
    ) {
      problems.push({ field: 'authorizationServers', message: 'must be a list of at most 10 http(s) URLs' })
    }
  }
  if (problems.length > 0) throw new InvalidInputError('Invalid issuer', problems)
}

function toDisplay(display: IssuerDisplay[] | undefined): OpenId4VcIssuerRecord['display'] {
  return display?.map((entry) => ({
    name: entry.name,
    ...(entry.locale ? { locale: entry.locale } : {}),
    ...(entry.logoUri
      ? { logo: { uri: entry.logoUri, ...(entry.logoAltText ? { alt_text: entry.logoAltText } : {}) } }
      : {}),
  }))
}

function batchOf(batchSize: number | undefined): { batchSize: number } | undefined {
  return batchSize && batchSize > 1 ? { batchSize } : undefined
}

function authorizationServersOf(urls: string[] | undefined): OpenId4VcIssuerRecord['authorizationServerConfigs'] {
  return urls && urls.length > 0 ? urls.map((issuer) => ({ type: 'direct' as const, issuer })) : undefined
}
