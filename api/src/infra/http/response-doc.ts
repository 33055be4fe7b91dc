import type { Envelope } from './envelope'
import type { DataSchema, SchemaComponents } from './data-schema'
import type { ReferenceObject, SchemaObject } from 'openapi3-ts'

/** Error statuses an operation can document beyond the ones the OpenAPI builder derives from the route. */
export type DocumentedErrorStatus = 400 | 401 | 403 | 404 | 409 | 429 | 501 | 502 | 503

/** What a route declares about its responses; the rest (params, auth, 400/401/403/404/500) is derived. */
export interface ResponseDoc {
  renderData(components: SchemaComponents): SchemaObject | ReferenceObject
  hasData: boolean
  errors: readonly DocumentedErrorStatus[]
  /** Other statuses answered with the same envelope (readiness: 503 with the status of each dependency). */
  alsoAnswers: readonly number[]
}

const docs = new Map<object, Map<string, ResponseDoc>>()

/**
 * Declares the `data` of a route's success envelope for the OpenAPI document, and the error statuses the
 * builder cannot derive (409 for conflicts, 429 for rate limits, 401 for credential checks on open routes,
 * 502 for agent calls). The compiler checks that the method returns `Envelope<T>` of the schema's type.
 */
export function ResponseData<T>(
  data: DataSchema<T>,
  options: { errors?: readonly DocumentedErrorStatus[]; alsoAnswers?: readonly number[] } = {},
) {
  return (
    prototype: object,
    method: string,
    // Only `value` is checked: the route must return the envelope of the schema's type.
    _descriptor: { value?: (...args: never[]) => Envelope<T> | Promise<Envelope<T>> },
  ): void => {
    const controller = prototype.constructor
    const routes = docs.get(controller) ?? new Map<string, ResponseDoc>()
    routes.set(method, {
      renderData: (components) => data.render(components),
      hasData: data.isMessageOnly !== true,
      errors: options.errors ?? [],
      alsoAnswers: options.alsoAnswers ?? [],
    })
    docs.set(controller, routes)
  }
}

/** The declaration of a controller method, or undefined when it declared none. */
export function responseDocOf(controller: object, method: string): ResponseDoc | undefined {
  return docs.get(controller)?.get(method)
}
