import express, { type Router } from 'express'
import type { Container } from 'inversify'
import { toErrorBody } from '../../infra/http/error-handler'
import type { Config } from '../../infra/config'
import { sectionOf } from '../../infra/config-section'
import { TOKENS } from '../../infra/tokens'
import { consoleConfig } from '../console/console.config'
import { consoleInvitationPath } from '../console/console.router'
import { SHORT_URL_PATH, ShortUrls } from './short-urls.service'

/**
 * `GET /s/:code` (no token): the invitation JSON for agents (`Accept: application/json`, as Credo's
 * short-URL fetch sends), a 302 to the long URL for everyone else: with the web console on, to the console's wallet
 * page for that invitation (which keeps the invitation's query). Unknown or expired: 404 with a message.
 */
export function shortUrlRoutes(container: Container): Router {
  const links = container.get(ShortUrls)
  const isConsoleOn = sectionOf(container.get<Config>(TOKENS.Config), consoleConfig).enabled
  const router = express.Router()
  router.get(`${SHORT_URL_PATH}/:code`, async (req, res) => {
    try {
      const { targetUrl, invitation } = await links.resolve(req.params.code)
      res.set('Cache-Control', 'no-store')
      const wantsJson = req.accepts(['text/html', 'application/json']) === 'application/json'
      if (wantsJson && invitation) return void res.json(invitation)
      res.redirect(302, (isConsoleOn && consoleInvitationPath(targetUrl)) || targetUrl)
    } catch (error) {
      const { body, headers } = toErrorBody(error)
      res.set(headers).status(body.statusCode).json(body)
    }
  })
  return router
}
