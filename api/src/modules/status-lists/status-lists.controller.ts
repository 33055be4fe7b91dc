import { injectable } from 'inversify'
import { Get, JsonController, Param, Res } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import type { Envelope } from '../../infra/http/envelope'
import { messageOnly } from '../../infra/http/data-schema'
import { sendRaw, type RawResponse } from '../../infra/http/raw-body'
import { ResponseData } from '../../infra/http/response-doc'
import { STATUS_LISTS_PATH, StatusLists } from './status-lists.service'

/**
 * Bitstring Status List credentials (issue 25 item 4; docs/decisions.md, "Bitstring Status Lists"): public, as
 * verifiers fetch them while checking a JSON-LD credential's `credentialStatus`.
 */
@injectable()
@JsonController(STATUS_LISTS_PATH)
@OpenAPI({ tags: ['Credentials'] })
export class StatusListsController {
  public constructor(private readonly lists: StatusLists) {}

  @Get('/:statusListId')
  @OpenAPI({
    summary:
      'A status list, public: a BitstringStatusListCredential (the credentialStatus.statusListCredential of JSON-LD credentials issued with a status) as JSON, or a Token Status List JWT (the status.status_list.uri of SD-JWT VCs issued over OpenID4VC with a status) as application/statuslist+jwt; signed by the issuer, not the envelope',
  })
  @ResponseData(messageOnly, { errors: [404] })
  async get(@Param('statusListId') statusListId: string, @Res() res: RawResponse): Promise<Envelope<never>> {
    const served = await this.lists.served(statusListId)
    // Verifiers may cache briefly; a revocation shows within a minute at most.
    return sendRaw(res, 200, { 'Content-Type': served.contentType, 'Cache-Control': 'public, max-age=60' }, served.body)
  }
}
