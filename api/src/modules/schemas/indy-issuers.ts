import { injectable } from 'inversify'
import { InvalidInputError } from '@idplane/common'
import { OrgDidsRepository } from '../orgs/org-dids.repository'
import { SchemasRepository } from './schemas.repository'
import { isIndyDid } from '@idplane/common/ledger-ids'

/** How many of the organization's earliest INDY schemas are looked at for the issuer it used (step 3). */
const EARLIER_ISSUERS_LOOKED_AT = 20

/**
 * The one place that decides which DID an organization publishes INDY schemas and credential definitions under
 * (docs/decisions.md, "INDY schemas and credential definitions"):
 *   1. `orgDid` when given: one of the organization's DIDs (400 otherwise) and an Indy DID (400 otherwise);
 *   2. the organization's primary DID when it is an Indy DID (legacy or did:indy);
 *   3. the legacy DID its agent made for an earlier INDY schema, so that one organization keeps one issuer;
 *   4. none yet: the agent is asked to make a legacy DID (`legacyIdentifiers`), which step 3 finds next time.
 */
@injectable()
export class IndyIssuers {
  public constructor(
    private readonly dids: OrgDidsRepository,
    private readonly schemas: SchemasRepository,
  ) {}

  /**
   * @returns the issuer DID, or undefined when the agent should make one (step 4)
   * @throws InvalidInputError when `orgDid` is not one of the organization's Indy DIDs
   */
  public async issuerFor(orgId: string, orgDid: string | undefined): Promise<string | undefined> {
    if (orgDid !== undefined) return this.checkedOrgDid(orgId, orgDid)
    const primary = await this.dids.findPrimary(orgId)
    if (primary && isIndyDid(primary.did)) return primary.did
    const earlier = await this.schemas.indyIssuerIds(orgId, EARLIER_ISSUERS_LOOKED_AT)
    return earlier.find((did) => isIndyDid(did))
  }

  private async checkedOrgDid(orgId: string, orgDid: string): Promise<string> {
    const field = [{ field: 'orgDid', message: 'must be an Indy DID of the organization' }]
    const owned = await this.dids.findByDid(orgId, orgDid)
    // The agent's own legacy issuer DIDs are the organization's too, though not in its DID list.
    const isEarlierIssuer = !owned && (await this.schemas.hasIndyIssuer(orgId, orgDid))
    if (!owned && !isEarlierIssuer)
      throw new InvalidInputError(`orgDid ${orgDid} is not one of the organization's DIDs`, field)
    if (!isIndyDid(orgDid))
      throw new InvalidInputError(
        `orgDid ${orgDid} is not an Indy DID: INDY schemas and credential definitions need a legacy Indy DID or a did:indy`,
        field,
      )
    return orgDid
  }
}
