import { injectable } from 'inversify'
import { JsonController, UseBefore } from 'routing-controllers'
import { OpenAPI } from 'routing-controllers-openapi'
import { EcosystemFeatureGate } from './ecosystem-feature.gate'

/**
 * A controller of ecosystem routes (spec: Endpoints, Ecosystems): under `/v1/ecosystem`, behind the feature gate, in
 * the "Ecosystems" tag. The ecosystems, invitations and members controllers share it.
 */
export function EcosystemController(): (target: new (...args: never[]) => object) => void {
  return (target) => {
    OpenAPI({ tags: ['Ecosystems'] })(target)
    ;(UseBefore(EcosystemFeatureGate) as ClassDecorator)(target)
    JsonController('/v1/ecosystem')(target)
    injectable()(target)
  }
}
