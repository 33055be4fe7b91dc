import { injectable } from 'inversify'
import { Get, HeaderParam, JsonController, Param, Post, Req, Res } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { TAILS_FILES_PATH, type StoredTailsFile } from '@idplane/common/agent-contract/ledger'
import { created, ok, type Envelope } from '../../infra/http/envelope'
import { integer, messageOnly, object, string } from '../../infra/http/data-schema'
import { readingUpload, sendRaw, type RawResponse, type UploadRequest } from '../../infra/http/raw-body'
import { ResponseData } from '../../infra/http/response-doc'
import { LedgerRequesters } from '../ledger/ledger.module'
import { TailsFilesService } from './tails-files.service'

const STORED_TAILS_FILE_SCHEMA = object<StoredTailsFile>('StoredTailsFile', {
  tailsHash: string,
  tailsLocation: string,
  size: integer,
})

/**
 * Tails files of AnonCreds revocation registries (docs/decisions.md, "Tails files"): agents upload the files of the
 * registries they create; anyone downloads them by hash (the registry definition's `tailsLocation`), without a token,
 * as holders do before proving non-revocation.
 */
@injectable()
@JsonController(TAILS_FILES_PATH)
@OpenAPI({ tags: ['Ledger'] })
export class TailsFilesController {
  public constructor(
    private readonly tailsFiles: TailsFilesService,
    private readonly requesters: LedgerRequesters,
  ) {}

  @Post()
  @OpenAPI({
    summary:
      'An agent stores the tails file of a revocation registry (body: the file, application/octet-stream; agent event token, or the base wallet API key for the cloud wallet agent); answers its hash and public URL. 201 new, 200 already stored; 413 beyond TAILS_FILE_MAX_BYTES',
    security: [{ bearer: [] }],
    requestBody: {
      required: true,
      content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
    },
  })
  @ResponseData(STORED_TAILS_FILE_SCHEMA, { errors: [400, 401], alsoAnswers: [201] })
  async upload(
    @HeaderParam('authorization') authorization: string,
    @Req() req: UploadRequest,
    @Res() res: RawResponse,
  ): Promise<Envelope<StoredTailsFile>> {
    return readingUpload(req, res, async () => {
      const orgId = await this.requesters.requesterOf(authorization)
      const { file, isNew } = await this.tailsFiles.upload(req, orgId)
      if (!isNew) return ok(file, 'Tails file already stored')
      res.status(201)
      return created(file, 'Tails file stored')
    })
  }

  @Get('/:tailsHash')
  @OpenAPI({
    summary:
      'A tails file by its hash (base58 of its SHA-256), application/octet-stream, not the JSON envelope; public. Check the bytes against the hash before use',
  })
  @ResponseData(messageOnly, { errors: [400] })
  async download(@Param('tailsHash') tailsHash: string, @Res() res: RawResponse): Promise<Envelope<never>> {
    const content = await this.tailsFiles.content(tailsHash)
    return sendRaw(
      res,
      200,
      {
        'Content-Type': 'application/octet-stream',
        // Content-addressed: the bytes under a hash never change.
        'Cache-Control': 'public, max-age=31536000, immutable',
        ETag: `"${tailsHash}"`,
      },
      content,
    )
  }
}
