import { injectable } from 'inversify'
import {
  Authorized,
  Body,
  Get,
  HttpCode,
  JsonController,
  Param,
  Params,
  Post,
  QueryParams,
  Req,
  Res,
} from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import type { RequestBodyObject } from 'openapi3-ts'
import { created, ok, type Envelope } from '../../infra/http/envelope'
import { messageOnly, pageOf } from '../../infra/http/data-schema'
import { toPage, type Page } from '../../infra/http/pagination'
import { readingUpload, sendRaw, type RawResponse, type UploadRequest } from '../../infra/http/raw-body'
import { ResponseData } from '../../infra/http/response-doc'
import { CurrentOrgCaller, type OrgCaller } from '../memberships/org-caller.decorator'
import type { OrgRoleName } from '../memberships/org-role.entity'
import { BulkExecutionService } from './bulk-execution.service'
import { BulkTemplatesService } from './bulk-templates.service'
import { BulkUploadService } from './bulk-upload.service'
import {
  BulkRequestParams,
  DownloadTemplateDto,
  ExecuteBulkDto,
  ExecuteQueryDto,
  ListTemplatesQuery,
  ProgressQueryDto,
  UploadQueryDto,
} from './dto/bulk-issuance.dto'
import {
  EXECUTION_SCHEMA,
  PROGRESS_SCHEMA,
  TEMPLATE_SCHEMA,
  UPLOAD_SUMMARY_SCHEMA,
  type BulkExecution,
  type BulkProgress,
} from './dto/bulk-issuance.response'
import type { BulkTemplate } from './bulk-templates.service'
import type { UploadSummary } from './bulk-upload.service'

/** Spec: the bulk template, upload and execution routes allow owner, admin, issuer and verifier. */
const BULK_ROLES: OrgRoleName[] = ['owner', 'admin', 'issuer', 'verifier']

const MULTIPART_UPLOAD: RequestBodyObject = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: {
          file: { type: 'string', format: 'binary', description: 'The CSV file (UTF-8), header line as the template' },
          fileName: { type: 'string', maxLength: 1024, description: 'Name to record (default: the part file name)' },
        },
      },
    },
  },
}

/** Bulk issuance from a CSV file (spec: Credential issuance, bulk routes; docs/decisions.md, Bulk issuance). */
@injectable()
@JsonController('/v1/orgs/:orgId')
@OpenAPI({ tags: ['Credential issuance'] })
export class BulkIssuanceController {
  public constructor(
    private readonly templates: BulkTemplatesService,
    private readonly uploads: BulkUploadService,
    private readonly executions: BulkExecutionService,
  ) {}

  @Get('/credentials/bulk/template')
  @Authorized(BULK_ROLES)
  @OpenAPI({
    summary:
      'CSV templates the organization can use: its JSON schemas (W3C) or its credential definitions registered on ' +
      'the ledger (INDY)',
  })
  @ResponseData(pageOf(TEMPLATE_SCHEMA))
  async listTemplates(
    @Param('orgId') orgId: string,
    @QueryParams() query: ListTemplatesQuery,
  ): Promise<Envelope<Page<BulkTemplate>>> {
    const [templates, total] = await this.templates.list(orgId, query.schemaType ?? 'W3C', query)
    return ok(toPage(templates, total, query), 'Bulk issuance templates fetched')
  }

  @Post('/credentials/bulk/template')
  @HttpCode(201)
  @Authorized(BULK_ROLES)
  @OpenAPI({
    summary:
      'Download a CSV template (text/csv attachment, not the JSON envelope): header line `email` plus one column ' +
      "per attribute of the schema (INDY: the credential definition's schema); required columns are listed by GET",
  })
  @ResponseData(messageOnly)
  async downloadTemplate(
    @Param('orgId') orgId: string,
    @Body({ required: true }) body: DownloadTemplateDto,
    @Res() res: RawResponse,
  ): Promise<Envelope<never>> {
    const { fileName, csv } = await this.templates.download(orgId, body, body.schemaType)
    return sendRaw(
      res,
      201,
      {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${fileName}"`,
        'Cache-Control': 'no-store',
      },
      csv,
    )
  }

  @Post('/bulk/upload')
  @HttpCode(201)
  @Authorized(BULK_ROLES)
  @OpenAPI({
    summary:
      'Upload a CSV file of recipients (multipart/form-data: file, optional fileName); every row is checked and ' +
      'the summary names each invalid row and column. 413 beyond BULK_MAX_FILE_BYTES, 400 beyond BULK_MAX_ROWS',
    requestBody: MULTIPART_UPLOAD,
  })
  @ResponseData(UPLOAD_SUMMARY_SCHEMA)
  async upload(
    @Param('orgId') orgId: string,
    @CurrentOrgCaller() caller: OrgCaller,
    @QueryParams() query: UploadQueryDto,
    @Req() req: UploadRequest,
    @Res() res: RawResponse,
  ): Promise<Envelope<UploadSummary>> {
    return readingUpload(req, res, async () => {
      const summary = await this.uploads.upload(
        orgId,
        caller.userId,
        {
          schemaType: query.schemaType,
          templateId: query.templateId,
          isValidateSchema: query.isValidateSchema ?? true,
        },
        req,
      )
      return created(summary, 'File uploaded and checked')
    })
  }

  @Post('/:requestId/bulk')
  @HttpCode(201)
  @Authorized(BULK_ROLES)
  @OpenAPI({
    summary:
      "Issue the request's valid rows (or the selected ones) by e-mail out-of-band offer, one queue job per row; " +
      'executing again retries failed rows and never mails a recipient twice',
  })
  @ResponseData(EXECUTION_SCHEMA, { errors: [409] })
  async execute(
    @Params() params: BulkRequestParams,
    @QueryParams() query: ExecuteQueryDto,
    @Body() body: ExecuteBulkDto,
  ): Promise<Envelope<BulkExecution>> {
    const view = await this.executions.execute(
      params.orgId,
      params.requestId,
      { isValidateSchema: query.isValidateSchema ?? true, templateId: query.templateId },
      body ?? {},
    )
    return created(view, `${view.queuedNow} row(s) queued for issuance`)
  }

  @Get('/bulk/:requestId')
  @Authorized(BULK_ROLES)
  @OpenAPI({ summary: 'Progress of a bulk issuance (extension): counts by status and the rows, paginated' })
  @ResponseData(PROGRESS_SCHEMA)
  async progress(
    @Params() params: BulkRequestParams,
    @QueryParams() query: ProgressQueryDto,
  ): Promise<Envelope<BulkProgress>> {
    const { request, rows } = await this.executions.progress(params.orgId, params.requestId, query)
    return ok({ ...request, rows: toPage(rows[0], rows[1], query) }, 'Bulk issuance progress fetched')
  }
}
