import { type AgentContext, DidsApi, injectable } from '@credo-ts/core'
import { ConflictError, InvalidInputError, NotFoundError } from '@idplane/common'

import { CredentialTemplateRecord, CredentialTemplateRepository } from './credential-template.record'
import { IssuersService } from './issuers.service'
import { checkTemplateInput, type CredentialTemplateInput } from './template-input'

/**
 * Credential templates of an issuer. Every change is reflected at once in the issuer's metadata (one credential
 * configuration per template, under the template id).
 */
@injectable()
export class CredentialTemplatesService {
  public constructor(
    private readonly templates: CredentialTemplateRepository,
    private readonly issuers: IssuersService,
  ) {}

  /**
   * @throws {NotFoundError} for an unknown issuer
   * @throws {InvalidInputError} for a bad template or a signing DID the organization does not hold
   * @throws {ConflictError} for a name the issuer already uses
   */
  public async create(
    agentContext: AgentContext,
    issuerId: string,
    input: CredentialTemplateInput,
  ): Promise<CredentialTemplateRecord> {
    await this.issuers.get(agentContext, issuerId)
    const checked = checkTemplateInput(input)
    await assertOwnDid(agentContext, checked)
    if (await this.templates.findSingleByQuery(agentContext, { issuerId, name: checked.name })) {
      throw new ConflictError('The issuer has a template with this name')
    }
    const record = new CredentialTemplateRecord({ ...checked, issuerId })
    await this.templates.save(agentContext, record)
    await this.issuers.syncMetadata(agentContext, issuerId)
    return record
  }

  /** @throws {NotFoundError} for an unknown issuer */
  public async list(agentContext: AgentContext, issuerId: string): Promise<CredentialTemplateRecord[]> {
    await this.issuers.get(agentContext, issuerId)
    const records = await this.templates.findByQuery(agentContext, { issuerId })
    return records.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
  }

  /** @throws {NotFoundError} for an unknown template or one of another issuer */
  public async get(
    agentContext: AgentContext,
    issuerId: string,
    templateId: string,
  ): Promise<CredentialTemplateRecord> {
    const record = await this.templates.findById(agentContext, templateId)
    if (!record || record.issuerId !== issuerId) throw new NotFoundError('Credential template not found')
    return record
  }

  /**
   * Changes a template: the given fields replace the stored ones, the result is checked whole. Offers made before
   * are issued with the template as it is when the wallet asks for the credential.
   * @throws {NotFoundError}
   * @throws {InvalidInputError}
   * @throws {ConflictError} for a name another template of the issuer uses
   */
  public async update(
    agentContext: AgentContext,
    issuerId: string,
    templateId: string,
    changes: Partial<CredentialTemplateInput>,
  ): Promise<CredentialTemplateRecord> {
    const record = await this.get(agentContext, issuerId, templateId)
    const merged: CredentialTemplateInput = { ...templateInputOf(record), ...definedOnly(changes) }
    const checked = checkTemplateInput(merged)
    await assertOwnDid(agentContext, checked)
    const sameName = await this.templates.findSingleByQuery(agentContext, { issuerId, name: checked.name })
    if (sameName && sameName.id !== record.id) throw new ConflictError('The issuer has a template with this name')
    Object.assign(record, checked)
    await this.templates.update(agentContext, record)
    await this.issuers.syncMetadata(agentContext, issuerId)
    return record
  }

  /** @throws {NotFoundError} */
  public async delete(agentContext: AgentContext, issuerId: string, templateId: string): Promise<void> {
    const record = await this.get(agentContext, issuerId, templateId)
    await this.templates.delete(agentContext, record)
    await this.issuers.syncMetadata(agentContext, issuerId)
  }
}

function templateInputOf(record: CredentialTemplateRecord): CredentialTemplateInput {
  return {
    name: record.name,
    description: record.description,
    format: record.format,
    vct: record.vct,
    doctype: record.doctype,
    types: record.types,
    claims: record.claims,
    signer: record.signer,
    display: record.display,
    validityDays: record.validityDays,
    authorization: record.authorization,
  }
}

/** A change to the format drops the type fields of the old format unless the change names them. */
function definedOnly(changes: Partial<CredentialTemplateInput>): Partial<CredentialTemplateInput> {
  const out: Partial<CredentialTemplateInput> = {}
  for (const [key, value] of Object.entries(changes)) if (value !== undefined) Object.assign(out, { [key]: value })
  if (changes.format !== undefined) {
    for (const key of ['vct', 'doctype', 'types'] as const) if (changes[key] === undefined) out[key] = undefined
  }
  return out
}

async function assertOwnDid(agentContext: AgentContext, input: CredentialTemplateInput): Promise<void> {
  if (input.signer.method !== 'did') return
  const [created] = await agentContext.resolve(DidsApi).getCreatedDids({ did: input.signer.did })
  if (!created) {
    throw new InvalidInputError('Unknown signing DID', [
      { field: 'signer.did', message: 'must be a DID this organization created' },
    ])
  }
}
