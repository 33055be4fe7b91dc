import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import { OrgRepository } from '../../infra/db/base.repository'
import { RevocationRegistry } from './revocation-registry.entity'

/** An index given out: the registry it belongs to and its place in it. */
export interface AllocatedIndex {
  registryId: string
  revocationRegistryDefinitionId: string
  index: number
  /** The registry's size (it holds the indices 1 to size-1). */
  size: number
  /** True when this was the registry's last free index (it is now full). */
  isLast: boolean
}

/** Tries before answering that no active registry has a free index (each try loses only to another allocation). */
const ALLOCATION_TRIES = 5

/** Revocation registries of an organization's credential definitions, and their indices. */
@injectable()
export class RevocationRegistriesRepository extends OrgRepository<RevocationRegistry> {
  public constructor(em: EntityManager) {
    super(em, RevocationRegistry)
  }

  public async add(
    orgId: string,
    row: { credentialDefinitionId: string; revocationRegistryDefinitionId: string; size: number },
  ): Promise<RevocationRegistry> {
    const em = this.em.fork()
    const registry = em.create(RevocationRegistry, {
      organization: orgId,
      credentialDefinition: row.credentialDefinitionId,
      revocationRegistryDefinitionId: row.revocationRegistryDefinitionId,
      size: row.size,
    })
    await em.flush()
    return registry
  }

  /** The definition's registries, oldest first. */
  public forCredentialDefinition(orgId: string, credentialDefinitionId: string): Promise<RevocationRegistry[]> {
    return this.em
      .fork()
      .find(
        RevocationRegistry,
        { organization: orgId, credentialDefinition: credentialDefinitionId },
        { orderBy: { createdAt: 'asc' } },
      )
  }

  /** The definition's newest registry (the one a successor follows), if any. */
  public newest(orgId: string, credentialDefinitionId: string): Promise<RevocationRegistry | null> {
    return this.em
      .fork()
      .findOne(
        RevocationRegistry,
        { organization: orgId, credentialDefinition: credentialDefinitionId },
        { orderBy: { createdAt: 'desc', id: 'desc' } },
      )
  }

  /**
   * Takes on making the registry that follows `registryId`, in one statement: true for the one caller that set the
   * claim (none was set, or it is older than `staleAfterMs`), false for every other.
   */
  public async claimSuccessor(registryId: string, staleAfterMs: number): Promise<boolean> {
    const rows = await this.em.fork().execute<{ id: string }[]>(
      `update "revocation_registries" set "successor_claimed_at" = now(), "updated_at" = now()
        where "id" = ? and ("successor_claimed_at" is null or "successor_claimed_at" < now() - (? * interval '1 millisecond'))
        returning "id"`,
      [registryId, staleAfterMs],
    )
    return rows.length === 1
  }

  /** Gives the claim up (making the successor failed), so that the next offer tries again. */
  public async releaseSuccessor(registryId: string): Promise<void> {
    await this.em
      .fork()
      .execute(`update "revocation_registries" set "successor_claimed_at" = null where "id" = ?`, [registryId])
  }

  /**
   * Gives out the next index of the definition's oldest active registry that has one, in one statement: the row is
   * locked, its counter moved and the registry marked full with its last index, then committed. Concurrent callers
   * wait for the lock and see the moved counter (PostgreSQL re-checks the outer condition on the row it waited for;
   * PGlite runs one statement at a time), so no index is given twice; one that loses to a registry filling up tries
   * again. The same SQL on PostgreSQL and PGlite.
   * @returns undefined when no active registry of the definition has a free index
   */
  public async allocateIndex(orgId: string, credentialDefinitionId: string): Promise<AllocatedIndex | undefined> {
    for (let attempt = 0; attempt < ALLOCATION_TRIES; attempt++) {
      const rows = await this.em
        .fork()
        .execute<
          { id: string; revocation_registry_definition_id: string; index: number; size: number; state: string }[]
        >(
          `update "revocation_registries"
            set "next_index" = "next_index" + 1,
                "state" = case when "next_index" + 1 > "size" - 1 then 'full' else "state" end,
                "updated_at" = now()
          where "id" = (select "id" from "revocation_registries"
                         where "organization_id" = ? and "credential_definition_id" = ?
                           and "state" = 'active' and "next_index" <= "size" - 1
                         order by "created_at", "id" limit 1 for update)
            and "state" = 'active' and "next_index" <= "size" - 1
          returning "id", "revocation_registry_definition_id", "next_index" - 1 as "index", "size", "state"`,
          [orgId, credentialDefinitionId],
        )
      const [row] = rows
      if (row)
        return {
          registryId: row.id,
          revocationRegistryDefinitionId: row.revocation_registry_definition_id,
          index: Number(row.index),
          size: Number(row.size),
          isLast: row.state === 'full',
        }
      const [free] = await this.em
        .fork()
        .execute<
          { count: string }[]
        >(`select count(*) as "count" from "revocation_registries" where "organization_id" = ? and "credential_definition_id" = ? and "state" = 'active' and "next_index" <= "size" - 1`, [orgId, credentialDefinitionId])
      if (Number(free?.count ?? 0) === 0) return undefined
    }
    return undefined
  }
}
