import { pathParamNames, PIPELINE_ERROR_STATUSES } from '@idplane/common/agent-contract/operation'
import { REASON_PHRASES } from '@idplane/common/http-errors'
import { validationMetadatasToSchemas } from 'class-validator-jsonschema'

import type { BoundOperation } from './admin-routes'

interface JsonSchema {
  properties?: Record<string, unknown>
  required?: string[]
}

/**
 * The admin API's OpenAPI document, from the same declarations the routes come from: each operation's path,
 * method, summary, parameters, body schema (its DTO class), success status and declared errors.
 */
export function adminOpenApi(operations: BoundOperation[]): Record<string, unknown> {
  const schemas = validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/' }) as Record<
    string,
    JsonSchema
  >
  const paths: Record<string, Record<string, unknown>> = {}
  for (const { kind, operation, body, query } of operations) {
    const path = operation.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
    const queryParams = query ? queryParameters(schemas[query.name]) : []
    const responses: Record<string, { description: string }> = {
      [operation.status]: { description: operation.message },
    }
    for (const [status, when] of Object.entries(operation.errors)) responses[status] = { description: String(when) }
    for (const status of PIPELINE_ERROR_STATUSES) {
      if (status === 401 && operation.access === 'public') continue
      responses[status] ??= { description: REASON_PHRASES[status] ?? 'Error' }
    }
    paths[path] ??= {}
    paths[path][operation.method.toLowerCase()] = {
      operationId: operation.name,
      summary: operation.summary,
      tags: [kind],
      parameters: [
        ...pathParamNames(operation.path).map((name) => ({
          name,
          in: 'path',
          required: true,
          schema: { type: 'string' },
        })),
        ...queryParams,
      ],
      ...(body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: { $ref: `#/components/schemas/${body.name}` } } },
            },
          }
        : {}),
      responses,
      ...(operation.access === 'public' ? { security: [] } : {}),
    }
  }
  return {
    openapi: '3.0.0',
    info: { title: 'idplane agent admin API', version: '1' },
    paths,
    components: { schemas, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
  }
}

function queryParameters(schema: JsonSchema | undefined): Record<string, unknown>[] {
  return Object.entries(schema?.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: schema?.required?.includes(name) ?? false,
    schema: property,
  }))
}
