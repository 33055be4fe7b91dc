import { injectable } from 'inversify'
import { InvalidInputError } from '@idplane/common'
import { RevocationRegistries } from '../revocations/revocation-registries.service'
import { withRevocation, type OfferPlan } from './agent-offers'

/**
 * The one step every AnonCreds offer takes just before it goes to the agent (connection, out-of-band, e-mail and
 * bulk offers): against one of the organization's revocable definitions it gets an index of a revocation registry
 * of its own (issue 25 item 3). Allocated per offer, never for a plan that is not sent: an index whose offer then
 * fails is lost, never reused.
 */
@injectable()
export class RevocableOffers {
  public constructor(private readonly registries: RevocationRegistries) {}

  /**
   * The plan as it goes to the agent: with a registry and index when its definition is revocable, else as is.
   * @throws InvalidInputError for a revocable definition offered over Issue Credential v1 (Credo's `indy` format
   * issues without a registry)
   * @throws InProgressError when every registry is full and the next one is not ready in time
   */
  public async prepare(orgId: string, plan: OfferPlan): Promise<OfferPlan> {
    const credentialDefinitionId = plan.details.credentialDefinitionId
    if (plan.details.credentialType !== 'INDY' || !credentialDefinitionId) return plan
    const definition = await this.registries.revocableDefinition(orgId, credentialDefinitionId)
    if (!definition) return plan
    if ('protocolVersion' in plan.format && plan.format.protocolVersion === 'v1')
      throw new InvalidInputError('A revocable credential is issued over Issue Credential v2', [
        { field: 'protocolVersion', message: 'must be v2 for a revocable credential' },
      ])
    return withRevocation(plan, await this.registries.allocate(orgId, definition))
  }
}
