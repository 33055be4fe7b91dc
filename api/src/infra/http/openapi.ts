import { getMetadataArgsStorage, type RoutingControllersOptions } from 'routing-controllers'
import { routingControllersToSpec, parseRoutes, getFullPath } from 'routing-controllers-openapi'
import { validationMetadatasToSchemas } from 'class-validator-jsonschema'
import type { OpenAPIObject, OperationObject } from 'openapi3-ts'

/**
 * The OpenAPI 3 document behind /api-json and the explorer at /api. Operations are grouped by resource
 * (their controller), and every route guarded by `@Authorized` declares bearer auth.
 */
export function buildOpenApiDocument(options: RoutingControllersOptions, publicUrl: string): OpenAPIObject {
  const storage = getMetadataArgsStorage()
  const schemas = validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/' })
  const spec = routingControllersToSpec(storage, options, {
    info: {
      title: 'idplane platform API',
      version: '1.0.0',
      description:
        'Multi-tenant decentralized identity: organizations, DIDs, schemas, connections, credentials and proofs.',
    },
    servers: [{ url: publicUrl }],
    components: {
      schemas: schemas as NonNullable<OpenAPIObject['components']>['schemas'],
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
  })
  for (const route of parseRoutes(storage, options)) {
    const isProtected = route.responseHandlers.some((handler) => handler.type === 'authorized')
    const path = getFullPath(route).replace(/:(\w+)/g, '{$1}')
    const method = (route.action.type ?? 'get').toLowerCase()
    const operation = spec.paths[path]?.[method] as OperationObject | undefined
    if (operation && isProtected) operation.security = [{ bearer: [] }]
  }
  // Internal routes (agents posting events) are not part of the public contract.
  for (const path of Object.keys(spec.paths)) if (path.startsWith('/v1/internal/')) delete spec.paths[path]
  return spec
}
