import express, { type Router } from 'express'
import type { Container } from 'inversify'
import { toErrorBody } from '../../infra/http/error-handler'
import { SHORT_URL_PATH, ShortUrls } from './short-urls.service'

/**
 * `GET /s/:code` (no token): the invitation JSON for agents (`Accept: application/json`, as Credo's
 * short-URL fetch sends), a 302 to the long URL for everyone else. Unknown or expired: 404 with a message.
 */
export function shortUrlRoutes(container: Container): Router {
  const links = container.get(ShortUrls)
  const router = express.Router()
  router.get(`${SHORT_URL_PATH}/:code`, async (req, res) => {
    try {
      const { targetUrl, invitation } = await links.resolve(req.params.code)
      res.set('Cache-Control', 'no-store')
      const wantsJson = req.accepts(['text/html', 'application/json']) === 'application/json'
      if (wantsJson && invitation) return void res.json(invitation)
      res.redirect(302, targetUrl)
    } catch (error) {
      const { body, headers } = toErrorBody(error)
      res.set(headers).status(body.statusCode).json(body)
    }
  })
  return router
}
