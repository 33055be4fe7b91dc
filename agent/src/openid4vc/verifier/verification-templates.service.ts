import { type AgentContext, injectable } from '@credo-ts/core'
import { ConflictError, InvalidInputError, NotFoundError } from '@idplane/common'

import { checkPresentationRequestOptions, type PresentationRequestOptions } from './presentation-request-input'
import { VerificationTemplateRecord, VerificationTemplateRepository } from './verification-template.record'

export interface VerificationTemplateInput extends PresentationRequestOptions {
  name: string
  description?: string
}

/** Stored presentation requests (query, response mode, signer) an organization reuses across its verifiers. */
@injectable()
export class VerificationTemplatesService {
  public constructor(private readonly templates: VerificationTemplateRepository) {}

  /**
   * @throws {InvalidInputError}
   * @throws {ConflictError} for a name in use
   */
  public async create(
    agentContext: AgentContext,
    input: VerificationTemplateInput,
  ): Promise<VerificationTemplateRecord> {
    const checked = checkTemplate(agentContext, input)
    if (await this.templates.findSingleByQuery(agentContext, { name: checked.name })) {
      throw new ConflictError('A verification template with this name exists')
    }
    const record = new VerificationTemplateRecord(checked)
    await this.templates.save(agentContext, record)
    return record
  }

  public async list(agentContext: AgentContext): Promise<VerificationTemplateRecord[]> {
    const records = await this.templates.getAll(agentContext)
    return records.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
  }

  /** @throws {NotFoundError} */
  public async get(agentContext: AgentContext, templateId: string): Promise<VerificationTemplateRecord> {
    const record = await this.templates.findById(agentContext, templateId)
    if (!record) throw new NotFoundError('Verification template not found')
    return record
  }

  /**
   * Replaces the template (PUT semantics: the whole template is given).
   * @throws {NotFoundError}
   * @throws {InvalidInputError}
   * @throws {ConflictError} for a name another template uses
   */
  public async replace(
    agentContext: AgentContext,
    templateId: string,
    input: VerificationTemplateInput,
  ): Promise<VerificationTemplateRecord> {
    const record = await this.get(agentContext, templateId)
    const checked = checkTemplate(agentContext, input)
    const sameName = await this.templates.findSingleByQuery(agentContext, { name: checked.name })
    if (sameName && sameName.id !== record.id) throw new ConflictError('A verification template with this name exists')
    record.name = checked.name
    record.description = checked.description
    record.query = checked.query
    record.responseMode = checked.responseMode
    record.signer = checked.signer
    record.isHaip = checked.isHaip
    await this.templates.update(agentContext, record)
    return record
  }

  /** @throws {NotFoundError} */
  public async delete(agentContext: AgentContext, templateId: string): Promise<void> {
    await this.templates.delete(agentContext, await this.get(agentContext, templateId))
  }
}

function checkTemplate(agentContext: AgentContext, input: VerificationTemplateInput): VerificationTemplateInput {
  const name = input?.name
  if (typeof name !== 'string' || name.trim() === '' || name.length > 256) {
    throw new InvalidInputError('Invalid verification template', [
      { field: 'name', message: 'must be a string of 1 to 256 characters' },
    ])
  }
  if (input.description !== undefined && (typeof input.description !== 'string' || input.description.length > 2000)) {
    throw new InvalidInputError('Invalid verification template', [
      { field: 'description', message: 'must be a string of at most 2000 characters' },
    ])
  }
  const options = checkPresentationRequestOptions(agentContext, input)
  return { name, description: input.description, ...options }
}
