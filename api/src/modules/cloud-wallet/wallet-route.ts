import { injectable } from 'inversify'
import { JsonController, UseBefore } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import type { DataSchema } from '../../infra/http/data-schema'
import { DocumentedRoute } from '../../infra/http/documented-route'
import type { DocumentedErrorStatus } from '../../infra/http/response-doc'
import { WalletAdmission } from './wallet-admission'

/**
 * What a route on the caller's own tenant may answer besides success: 403 for an organization client, 404 before
 * the caller created a wallet, 409 while no base wallet is configured, 502/503 when the base wallet's agent fails.
 */
export const WALLET_ROUTE_ERRORS: readonly DocumentedErrorStatus[] = [403, 404, 409, 502, 503]

/**
 * A controller of the cloud wallet's routes (spec: Cloud wallet): under `/v1`, in the "Cloud wallet" tag, holders
 * taking turns (WalletAdmission).
 */
export function WalletController(): (target: new (...args: never[]) => object) => void {
  return (target) => {
    OpenAPI({ tags: ['Cloud wallet'] })(target)
    ;(UseBefore(WalletAdmission) as ClassDecorator)(target)
    JsonController('/v1')(target)
    injectable()(target)
  }
}

/**
 * A cloud-wallet route: it needs a signed-in user (the service checks the caller's wallet), documents `summary`, the
 * `data` of its envelope and its error statuses (WALLET_ROUTE_ERRORS unless given), and 429 besides: every route
 * of a WalletController waits for its turn, and its queue is bounded.
 */
export function WalletRoute<T>(
  summary: string,
  data: DataSchema<T>,
  errors: readonly DocumentedErrorStatus[] = WALLET_ROUTE_ERRORS,
) {
  return DocumentedRoute({ summary, data, errors: [...new Set<DocumentedErrorStatus>([...errors, 429])] })
}
