import { injectable } from 'inversify'
import { InvalidInputError } from '@idplane/common'
import { RevocationRegistries } from '../revocations/revocation-registries.service'
import { StatusLists } from '../status-lists/status-lists.service'
import { issuerOf, withRevocation, withStatus, type OfferPlan } from './agent-offers'

/**
 * The one step every AnonCreds offer takes just before it goes to the agent (connection, out-of-band, e-mail and
 * bulk offers): against one of the organization's revocable definitions it gets an index of a revocation registry
 * of its own (issue 25 item 3). Allocated per offer, never for a plan that is not sent: an index whose offer then
 * fails is lost, never reused.
 */
@injectable()
export class RevocableOffers {
  public constructor(
    private readonly registries: RevocationRegistries,
    private readonly statusLists: StatusLists,
  ) {}

  /**
   * The plan as it goes to the agent: with a registry and index when its definition is revocable, else as is, over
   * Issue Credential v1 or v2 (the agent's `indy` format issues into the registry as its `anoncreds` format does).
   * @throws InProgressError when every registry is full and the next one is not ready in time
   */
  public async prepare(orgId: string, plan: OfferPlan): Promise<OfferPlan> {
    if (plan.details.credentialType === 'JSONLD') return this.withStatusEntry(orgId, plan)
    const credentialDefinitionId = plan.details.credentialDefinitionId
    if (plan.details.credentialType !== 'INDY' || !credentialDefinitionId) return plan
    const definition = await this.registries.revocableDefinition(orgId, credentialDefinitionId)
    if (!definition) return plan
    return withRevocation(plan, await this.registries.allocate(orgId, definition))
  }

  /** A JSON-LD plan that asked for a status gets an index of one of its issuer's status lists of that purpose. */
  private async withStatusEntry(orgId: string, plan: OfferPlan): Promise<OfferPlan> {
    const purpose = plan.details.statusPurpose
    if (!purpose || !('credential' in plan.format)) return plan
    const issuer = issuerOf(plan.format.credential)
    if (!issuer?.startsWith('did:'))
      throw new InvalidInputError('A credential with a status names its issuer DID', [
        { field: 'credential.issuer', message: 'must be the DID that signs the credential and its status list' },
      ])
    const [allocation] = await this.statusLists.allocate(orgId, issuer, plan.format.options.proofType, [purpose])
    return withStatus(plan, allocation, this.statusLists.entryOf(allocation))
  }
}
