import express, { type Router } from 'express'
import type { Container } from 'inversify'
import { toErrorBody } from '../../infra/http/error-handler'
import { entityTag } from '../../infra/http/entity-tag'
import { PUBLISHED_SCHEMA_PATH } from './published-schema-urls'
import { SchemasService } from './schemas.service'

/** How long caches may keep a published schema: schemas never change once created, but an organization may go. */
const PUBLISHED_SCHEMA_MAX_AGE_SECONDS = 3600

/**
 * `GET /schemas/:schemaId` (no token): the JSON Schema document of a JSON schema, as
 * `application/schema+json`, cacheable and readable from any origin (wallets and verifiers fetch it).
 * Unknown id: 404 with a message.
 */
export function publishedSchemaRoutes(container: Container): Router {
  const schemas = container.get(SchemasService)
  const router = express.Router()
  router.get(`${PUBLISHED_SCHEMA_PATH}/:schemaId`, async (req, res) => {
    try {
      const document = await schemas.published(req.params.schemaId)
      res.set({
        'Cache-Control': `public, max-age=${PUBLISHED_SCHEMA_MAX_AGE_SECONDS}`,
        'Access-Control-Allow-Origin': '*',
        'Cross-Origin-Resource-Policy': 'cross-origin',
      })
      const body = JSON.stringify(document)
      res.set('ETag', entityTag(body)).type('application/schema+json').send(body)
    } catch (error) {
      const { body, headers } = toErrorBody(error)
      res.set(headers).status(body.statusCode).json(body)
    }
  })
  return router
}
