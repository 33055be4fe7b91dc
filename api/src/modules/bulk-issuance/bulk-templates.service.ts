import { injectable } from 'inversify'
import { InvalidInputError, NotFoundError } from '@idplane/common'
import { credDefIdForms } from '@idplane/common/ledger-ids'
import { AgentClients } from '../../agent-client/agent-clients'
import type { CredentialDefinition } from '../cred-defs/credential-definition.entity'
import type { CredentialSchema } from '../schemas/credential-schema.entity'
import { PublishedSchemaUrls } from '../schemas/published-schema-urls'
import type { BulkSchemaType } from './bulk-request.entity'
import { CredDefsRepository } from '../cred-defs/cred-defs.repository'
import { SchemasRepository } from '../schemas/schemas.repository'
import { templateColumns, templateCsv, templateFileName, EMAIL_COLUMN, type TemplateColumn } from './csv-template'
import { indyRowValidator, jsonSchemaRowValidator, type RowValidator } from './row-validation'

/**
 * A usable template. W3C: one of the organization's JSON schemas (`templateId` is its record id). INDY: one of its
 * credential definitions registered on the ledger (`templateId` is the definition's record id; its ledger id is
 * `credentialDefinitionId`). Routes name a template by `templateId` or by the spec's ids (BulkTemplatesService.resolve).
 */
export interface BulkTemplate {
  templateId: string
  schemaType: BulkSchemaType
  name: string
  version: string
  schemaLedgerId: string
  /** INDY: the credential definition's ledger id. */
  credentialDefinitionId?: string
  /** Every column of the file, `email` first; `isRequired` columns must have a value in every row. */
  columns: TemplateColumn[]
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A template with what checking and issuing its rows needs. */
export interface ResolvedTemplate extends BulkTemplate {
  /** The attribute columns (`columns` without `email`). */
  attributeColumns: TemplateColumn[]
  /** Types and constraints of the values (isValidateSchema). */
  validator: RowValidator
  /** W3C cells become typed JSON values; INDY cells stay text (AnonCreds signs text). */
  typedCells: boolean
  /** INDY: the id the agent registered the definition under (its did:indy id when it has one). */
  agentCredentialDefinitionId?: string
}

const NO_TEMPLATE: Record<BulkSchemaType, string> = {
  W3C: 'Template not found: the organization has no JSON schema with this id',
  INDY: 'Template not found: the organization has no credential definition with this id registered on the ledger',
}

@injectable()
export class BulkTemplatesService {
  public constructor(
    private readonly schemas: SchemasRepository,
    private readonly credDefs: CredDefsRepository,
    private readonly urls: PublishedSchemaUrls,
    private readonly agents: AgentClients,
  ) {}

  public async list(
    orgId: string,
    schemaType: BulkSchemaType,
    page: { pageNumber: number; pageSize: number },
  ): Promise<[BulkTemplate[], number]> {
    if (schemaType === 'W3C') {
      const [schemas, total] = await this.schemas.listJsonSchemas(orgId, page)
      return [schemas.map((schema) => publicPart(this.w3cTemplate(schema))), total]
    }
    const [definitions, total] = await this.credDefs.listCreatedCredDefs(orgId, page)
    const schemas = await this.schemas.indySchemasByLedgerId(
      orgId,
      definitions.map((definition) => definition.schemaLedgerId),
    )
    const templates: BulkTemplate[] = []
    for (const definition of definitions) {
      templates.push(publicPart(await this.indyTemplate(orgId, definition, schemas.get(definition.schemaLedgerId))))
    }
    return [templates, total]
  }

  /**
   * The template behind an id, of the given type (issue 22 item 6). W3C: the JSON schema's record id or its public
   * URL (its schemaLedgerId). INDY: the credential definition's record id or its ledger id, in either form.
   * @throws InvalidInputError when the id is none of those forms (never a database error)
   * @throws NotFoundError when the organization has no such JSON schema (W3C) or registered definition (INDY)
   */
  public async resolve(orgId: string, schemaType: BulkSchemaType, templateId: string): Promise<ResolvedTemplate> {
    const id = templateId.trim()
    if (schemaType === 'W3C') {
      const recordId = UUID.test(id) ? id.toLowerCase() : /^https?:\/\//i.test(id) ? this.urls.idOf(id) : null
      if (recordId === null)
        throw new InvalidInputError('templateId must be the JSON schema id (UUID) or its URL (schemaLedgerId)', [
          { field: 'templateId', message: 'is malformed' },
        ])
      const schema = recordId === undefined ? null : await this.schemas.findJsonSchema(orgId, recordId)
      if (!schema) throw new NotFoundError(NO_TEMPLATE.W3C)
      return this.w3cTemplate(schema)
    }
    const forms = UUID.test(id) ? undefined : credDefIdForms(id)
    if (!UUID.test(id) && !forms)
      throw new InvalidInputError(
        'templateId must be the credential definition id (<did>:3:CL:<schemaSeqNo>:<tag> or its did:indy form) or its record id (UUID)',
        [{ field: 'templateId', message: 'is malformed' }],
      )
    const definition = await this.credDefs.findCreatedCredDef(
      orgId,
      forms ? { credentialDefinitionId: forms.legacy } : { id: id.toLowerCase() },
    )
    if (!definition) throw new NotFoundError(NO_TEMPLATE.INDY)
    const schemas = await this.schemas.indySchemasByLedgerId(orgId, [definition.schemaLedgerId])
    return this.indyTemplate(orgId, definition, schemas.get(definition.schemaLedgerId))
  }

  /** @throws InvalidInputError when no id is given, or the errors of `resolve` */
  public async download(
    orgId: string,
    ids: { templateId?: string; credentialDefinitionId?: string; schemaId?: string },
    schemaType: BulkSchemaType,
  ): Promise<{ fileName: string; csv: string }> {
    const templateId = ids.templateId ?? (schemaType === 'INDY' ? ids.credentialDefinitionId : ids.schemaId)
    if (templateId === undefined)
      throw new InvalidInputError(
        `The template is required: templateId or ${schemaType === 'INDY' ? 'credentialDefinitionId' : 'schemaId'}`,
        [{ field: schemaType === 'INDY' ? 'credentialDefinitionId' : 'schemaId', message: 'is required' }],
      )
    const template = await this.resolve(orgId, schemaType, templateId)
    return {
      fileName: templateFileName(template.name, template.version),
      csv: templateCsv(template.attributeColumns),
    }
  }

  private w3cTemplate(schema: CredentialSchema): ResolvedTemplate {
    const attributeColumns = templateColumns(schema.attributes)
    return {
      templateId: schema.id,
      schemaType: 'W3C',
      name: schema.name,
      version: schema.version,
      schemaLedgerId: this.urls.urlOf(schema.id),
      columns: withEmail(attributeColumns),
      attributeColumns,
      validator: jsonSchemaRowValidator(`${schema.id}@${schema.updatedAt.getTime()}`, schema.jsonSchema),
      typedCells: true,
    }
  }

  /**
   * Columns from the platform's record of the schema (data types, display names, required flags); a schema the
   * platform has no record of (published elsewhere) gives text columns, all required, from the ledger's names.
   */
  private async indyTemplate(
    orgId: string,
    definition: CredentialDefinition,
    schema: CredentialSchema | undefined,
  ): Promise<ResolvedTemplate> {
    let name: string
    let version: string
    let attributeColumns: TemplateColumn[]
    if (schema) {
      ;({ name, version } = schema)
      attributeColumns = templateColumns(schema.attributes)
    } else {
      const agent = await this.agents.forOrg(orgId)
      const resolved = await agent.resolveCredentialDefinition(agentIdOf(definition))
      ;({ name, version } = resolved.schema)
      attributeColumns = resolved.schema.attrNames.map((attrName) => ({
        name: attrName,
        dataType: 'string',
        isRequired: true,
      }))
    }
    return {
      templateId: definition.id,
      schemaType: 'INDY',
      name,
      version,
      schemaLedgerId: definition.schemaLedgerId,
      credentialDefinitionId: definition.credentialDefinitionId ?? undefined,
      agentCredentialDefinitionId: agentIdOf(definition),
      columns: withEmail(attributeColumns),
      attributeColumns,
      validator: indyRowValidator(attributeColumns),
      typedCells: false,
    }
  }
}

/** The id the agent registered a definition under: its did:indy id when it has one (CredDefsService.idForOffer). */
function agentIdOf(definition: CredentialDefinition): string {
  return definition.credentialDefinitionDidIndyId ?? definition.credentialDefinitionId ?? ''
}

function withEmail(columns: TemplateColumn[]): TemplateColumn[] {
  return [{ name: EMAIL_COLUMN, dataType: 'email', isRequired: true }, ...columns]
}

/** What the list route answers of a template. */
function publicPart(template: BulkTemplate): BulkTemplate {
  return {
    templateId: template.templateId,
    schemaType: template.schemaType,
    name: template.name,
    version: template.version,
    schemaLedgerId: template.schemaLedgerId,
    ...(template.credentialDefinitionId ? { credentialDefinitionId: template.credentialDefinitionId } : {}),
    columns: template.columns,
  }
}
