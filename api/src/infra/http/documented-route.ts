import { Authorized } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import type { DataSchema } from './data-schema'
import type { Envelope } from './envelope'
import { ResponseData, type DocumentedErrorStatus } from './response-doc'

export interface DocumentedRouteOptions<T> {
  /** The explorer's one-line summary of the route. */
  summary: string
  /** The `data` of the route's envelope. */
  data: DataSchema<T>
  /** Error statuses the route documents besides the common ones. */
  errors?: readonly DocumentedErrorStatus[]
  /** Organization roles allowed; absent: any signed-in caller (the service checks further). */
  roles?: readonly string[]
}

/**
 * The three decorators every documented route repeats (who may call it, its summary, its answer and errors), as one.
 * Families of routes that share their roles' shape or errors wrap it (WalletRoute, OpenId4VcRoute).
 */
export function DocumentedRoute<T>(options: DocumentedRouteOptions<T>) {
  const documentData = ResponseData(options.data, { errors: options.errors })
  const authorize = (options.roles ? Authorized([...options.roles]) : Authorized()) as MethodDecorator
  return (
    prototype: object,
    method: string,
    descriptor: PropertyDescriptor & { value?: (...args: never[]) => Envelope<T> | Promise<Envelope<T>> },
  ): void => {
    documentData(prototype, method, descriptor)
    OpenAPI({ summary: options.summary })(prototype, method, descriptor)
    authorize(prototype, method, descriptor)
  }
}
