import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  RequestBodyObject,
  SchemaObject,
} from 'openapi3-ts'

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

/** One call as a client made it: method, path, query names and the top-level keys of its JSON body. */
export interface ObservedCall {
  method: string
  path: string
  query: string[]
  bodyKeys: string[]
}

interface CompiledOperation {
  method: string
  template: string
  pattern: RegExp
  query: Set<string>
  /** Top-level body properties; undefined when the body is open (no properties listed) or not JSON. */
  bodyKeys?: Set<string>
}

function resolve<T extends object>(doc: OpenAPIObject, value: T | ReferenceObject | undefined): T | undefined {
  if (!value || !('$ref' in value)) return value
  const name = value.$ref.split('/').pop() ?? ''
  const components = doc.components as Record<string, Record<string, unknown>> | undefined
  for (const kind of ['schemas', 'requestBodies', 'parameters']) {
    const found = components?.[kind]?.[name]
    if (found) return found as T
  }
  return undefined
}

function compile(doc: OpenAPIObject): CompiledOperation[] {
  return Object.entries(doc.paths).flatMap(([template, item]) =>
    METHODS.flatMap((method) => {
      const operation = (item as Record<string, OperationObject | undefined>)[method]
      if (!operation) return []
      const parameters = (operation.parameters ?? []).map((parameter) => resolve<ParameterObject>(doc, parameter))
      const query = new Set(
        parameters.filter((parameter) => parameter?.in === 'query').map((parameter) => parameter?.name ?? ''),
      )
      const body = resolve<RequestBodyObject>(doc, operation.requestBody)
      const schema = resolve<SchemaObject>(doc, body?.content?.['application/json']?.schema)
      const properties = schema?.properties ? Object.keys(schema.properties) : undefined
      const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')
      return [
        {
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${source}$`),
          query,
          bodyKeys: properties ? new Set(properties) : undefined,
        },
      ]
    }),
  )
}

/**
 * What in `calls` the document does not describe: a method and path no operation has, a query parameter the operation
 * does not declare, a top-level body field its JSON body schema does not list. Literal paths win over templated ones
 * (`/v1/orgs/public-profile` before `/v1/orgs/{orgId}`), as the router matches them.
 */
export function undocumentedCalls(doc: OpenAPIObject, calls: readonly ObservedCall[]): string[] {
  const operations = compile(doc)
  const problems = new Set<string>()
  for (const call of calls) {
    const candidates = operations
      .filter((operation) => operation.method === call.method && operation.pattern.test(call.path))
      .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0))
    const operation = candidates[0]
    if (!operation) {
      problems.add(`${call.method} ${call.path}: no such operation`)
      continue
    }
    for (const name of call.query) {
      if (!operation.query.has(name))
        problems.add(`${call.method} ${operation.template}: query parameter ${name} is not documented`)
    }
    for (const key of call.bodyKeys) {
      if (operation.bodyKeys && !operation.bodyKeys.has(key))
        problems.add(`${call.method} ${operation.template}: body field ${key} is not documented`)
    }
  }
  return [...problems]
}

/** The API calls of a browser request (the console's own files and other origins are not API calls). */
export function observedCall(method: string, url: string, postData: string | null): ObservedCall | undefined {
  const parsed = new URL(url)
  if (!/^\/(v\d+|webhooks)\//.test(parsed.pathname)) return undefined
  let bodyKeys: string[] = []
  if (postData) {
    try {
      const body: unknown = JSON.parse(postData)
      if (body !== null && typeof body === 'object' && !Array.isArray(body)) bodyKeys = Object.keys(body)
    } catch {
      bodyKeys = []
    }
  }
  return { method, path: parsed.pathname, query: [...new Set(parsed.searchParams.keys())], bodyKeys }
}
