import express, { type Request, type Response, type Router } from 'express'
import { isUUID } from 'class-validator'
import type { Container } from 'inversify'
import type { Config } from '../../infra/config'
import { TOKENS } from '../../infra/tokens'
import { shellQuote, signInCurl } from '../mail-pages/curl-commands'
import { html, sendPage, type Html } from '../mail-pages/html-page'

/** Path of the page the invitation mail links to when the client alias points at the API itself. */
export const ECOSYSTEM_INVITATION_PAGE_PATH = '/ecosystems/invitations'

/** `PUT /v1/ecosystem/invitation/status` as a curl command. */
export function answerEcosystemInvitationCurl(
  publicUrl: string,
  ecosystemId: string,
  orgId: string,
  status: 'accepted' | 'rejected',
): string {
  return [
    `curl -X PUT ${shellQuote(`${publicUrl}/v1/ecosystem/invitation/status?status=${status}`)}`,
    `-H 'Content-Type: application/json' -H 'Authorization: Bearer <access_token>'`,
    `-d ${shellQuote(JSON.stringify({ ecosystemId, orgId }))}`,
  ].join(' \\\n  ')
}

/**
 * How to answer: the commands only. The page reads nothing from the database, so a forwarded or guessed link
 * shows nothing about the ecosystem or the organizations (the mail itself names them).
 */
export function ecosystemInvitationPage(publicUrl: string, ecosystemId: string, orgId: string): Html {
  return html`<h1>Invitation to an ecosystem</h1>
    <p>An owner or admin of the invited organization answers the invitation.</p>
    <ol>
      <li>
        Sign in; the answer's <code>data.access_token</code> is your token:
        <pre>${signInCurl(publicUrl, '<your address>')}</pre>
      </li>
      <li>
        Accept the invitation (or send <code>status=rejected</code> to decline it):
        <pre id="accept">${answerEcosystemInvitationCurl(publicUrl, ecosystemId, orgId, 'accepted')}</pre>
      </li>
    </ol>`
}

function brokenLinkPage(): Html {
  return html`<h1 class="failed">Broken link</h1>
    <p id="result" class="failed">
      The link does not name an ecosystem invitation. Open the link from the invitation mail again.
    </p>`
}

/** The page of the mailed link (ApiModule.router), plain HTML like the other mail pages. */
export function ecosystemInvitationPages(container: Container): Router {
  const publicUrl = container.get<Config>(TOKENS.Config).http.publicUrl.replace(/\/$/, '')
  const router = express.Router()
  router.get(ECOSYSTEM_INVITATION_PAGE_PATH, (req: Request, res: Response) => {
    const { ecosystemId, orgId } = req.query
    if (typeof ecosystemId !== 'string' || !isUUID(ecosystemId) || typeof orgId !== 'string' || !isUUID(orgId)) {
      return sendPage(res, 400, 'Broken link', brokenLinkPage())
    }
    sendPage(res, 200, 'Invitation to an ecosystem', ecosystemInvitationPage(publicUrl, ecosystemId, orgId))
  })
  return router
}
