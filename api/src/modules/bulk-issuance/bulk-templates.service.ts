import { injectable } from 'inversify'
import { NotFoundError, NotImplementedError } from '@idplane/common'
import type { CredentialSchema } from '../schemas/credential-schema.entity'
import { PublishedSchemaUrls } from '../schemas/published-schema-urls'
import type { BulkSchemaType } from './bulk-request.entity'
import { BulkIssuanceRepository } from './bulk-issuance.repository'
import { templateColumns, templateCsv, templateFileName, EMAIL_COLUMN, type TemplateColumn } from './csv-template'

export const INDY_NOT_AVAILABLE = 'AnonCreds (INDY) is not available yet'

/** A usable template: a W3C template is one of the organization's JSON schemas. */
export interface BulkTemplate {
  templateId: string
  schemaType: BulkSchemaType
  name: string
  version: string
  schemaLedgerId: string
  /** Every column of the file, `email` first; `isRequired` columns must have a value in every row. */
  columns: TemplateColumn[]
}

/** 501 for INDY until the ledger issue (spec: the other INDY routes answer the same). */
export function refuseIndy(schemaType: BulkSchemaType): void {
  if (schemaType === 'INDY') throw new NotImplementedError(INDY_NOT_AVAILABLE)
}

@injectable()
export class BulkTemplatesService {
  public constructor(
    private readonly repository: BulkIssuanceRepository,
    private readonly urls: PublishedSchemaUrls,
  ) {}

  public async list(
    orgId: string,
    schemaType: BulkSchemaType,
    page: { pageNumber: number; pageSize: number },
  ): Promise<[BulkTemplate[], number]> {
    refuseIndy(schemaType)
    const [schemas, total] = await this.repository.listJsonSchemas(orgId, page)
    return [schemas.map((schema) => this.templateOf(schema)), total]
  }

  /**
   * The organization's JSON schema behind a W3C template.
   * @throws NotFoundError when the organization has no JSON schema with this id
   */
  public async schemaOf(orgId: string, templateId: string): Promise<CredentialSchema> {
    const schema = await this.repository.findJsonSchema(orgId, templateId)
    if (!schema) throw new NotFoundError('Template not found: the organization has no JSON schema with this id')
    return schema
  }

  public async download(
    orgId: string,
    templateId: string,
    schemaType: BulkSchemaType,
  ): Promise<{ fileName: string; csv: string }> {
    refuseIndy(schemaType)
    const schema = await this.schemaOf(orgId, templateId)
    return {
      fileName: templateFileName(schema.name, schema.version),
      csv: templateCsv(templateColumns(schema.attributes)),
    }
  }

  public templateOf(schema: CredentialSchema): BulkTemplate {
    return {
      templateId: schema.id,
      schemaType: 'W3C',
      name: schema.name,
      version: schema.version,
      schemaLedgerId: this.urls.urlOf(schema.id),
      columns: [{ name: EMAIL_COLUMN, dataType: 'email', isRequired: true }, ...templateColumns(schema.attributes)],
    }
  }
}
