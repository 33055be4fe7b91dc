import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { InvalidInputError } from '@idplane/common'
import { OrgDid } from '../orgs/org-did.entity'
import { CredentialSchema } from './credential-schema.entity'
import { isIndyDid } from '@idplane/common/ledger-ids'

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
  public constructor(private readonly em: EntityManager) {}

  /**
   * @returns the issuer DID, or undefined when the agent should make one (step 4)
   * @throws InvalidInputError when `orgDid` is not one of the organization's Indy DIDs
   */
  public async issuerFor(orgId: string, orgDid: string | undefined): Promise<string | undefined> {
    if (orgDid !== undefined) return this.checkedOrgDid(orgId, orgDid)
    const primary = await this.em.findOne(OrgDid, { organization: orgId, isPrimaryDid: true })
    if (primary && isIndyDid(primary.did)) return primary.did
    const earlier = await this.em.find(
      CredentialSchema,
      { organization: orgId, type: 'INDY', issuerId: { $ne: null } },
      { orderBy: { createdAt: 'asc', id: 'asc' }, limit: 20 },
    )
    return earlier.map((schema) => schema.issuerId).find((did): did is string => !!did && isIndyDid(did))
  }

  private async checkedOrgDid(orgId: string, orgDid: string): Promise<string> {
    const field = [{ field: 'orgDid', message: 'must be an Indy DID of the organization' }]
    const owned = await this.em.findOne(OrgDid, { organization: orgId, did: orgDid })
    // The agent's own legacy issuer DIDs are the organization's too, though not in its DID list.
    const isEarlierIssuer =
      !owned && (await this.em.count(CredentialSchema, { organization: orgId, type: 'INDY', issuerId: orgDid })) > 0
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
