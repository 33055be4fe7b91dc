import { randomInt, randomUUID } from 'node:crypto'
import { injectable } from 'inversify'
import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql'
import type { StatusPurpose } from '@idplane/common/bitstring-status-list'
import { OrgRepository } from '../../infra/db/base.repository'
import { StatusList, StatusListEntryRow, type StatusListFormat } from './status-list.entity'

/** Random draws before the free index is looked up in order (only a nearly full list gets there). */
const RANDOM_DRAWS = 32

/** A list with a slot reserved for one credential. */
export interface ReservedSlot {
  statusListId: string
  size: number
}

/** Status lists and their entries (issue 25 item 4). */
@injectable()
export class StatusListsRepository extends OrgRepository<StatusList> {
  public constructor(em: EntityManager) {
    super(em, StatusList)
  }

  public findById(id: string): Promise<StatusList | null> {
    return this.em.fork().findOne(StatusList, { id })
  }

  /** The issuer's newest list of the format and purpose, if any. */
  public newest(
    orgId: string,
    format: StatusListFormat,
    issuer: string,
    purpose: StatusPurpose,
  ): Promise<StatusList | null> {
    return this.em
      .fork()
      .findOne(StatusList, { organization: orgId, format, issuer, purpose }, { orderBy: { sequence: 'desc' } })
  }

  /**
   * Adds a list made (and signed) by the caller.
   * @returns false when another process added the same sequence first (the caller uses that one)
   */
  public async add(
    orgId: string,
    row: Pick<StatusList, 'id' | 'format' | 'issuer' | 'purpose' | 'sequence' | 'proofType' | 'size'> &
      Partial<Pick<StatusList, 'credential' | 'token'>>,
  ): Promise<boolean> {
    const em = this.em.fork()
    em.create(StatusList, { ...row, organization: orgId })
    try {
      await em.flush()
      return true
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return false
      throw error
    }
  }

  /**
   * Reserves `count` indices of the issuer's oldest list of the purpose that has that many free, in one statement (the
   * row is locked and its counter moved, as revocation registries do), so no list ever promises more than its size.
   * @returns undefined when no list has `count` free (or there is none)
   */
  public async reserve(
    orgId: string,
    format: StatusListFormat,
    issuer: string,
    purpose: StatusPurpose,
    count = 1,
  ): Promise<ReservedSlot | undefined> {
    const rows = await this.em.fork().execute<{ id: string; size: number }[]>(
      `update "status_lists" set "allocated" = "allocated" + ?, "updated_at" = now()
        where "id" = (select "id" from "status_lists"
                       where "organization_id" = ? and "format" = ? and "issuer" = ? and "purpose" = ?
                         and "allocated" + ? <= "size"
                       order by "sequence" limit 1 for update)
          and "allocated" + ? <= "size"
        returning "id", "size"`,
      [count, orgId, format, issuer, purpose, count, count],
    )
    const [row] = rows
    return row ? { statusListId: row.id, size: Number(row.size) } : undefined
  }

  /**
   * Takes a free index of a list with a reserved slot: drawn at random (the specification's privacy advice), the
   * unique (list, index) pair deciding between concurrent draws of the same one; after RANDOM_DRAWS misses the lowest
   * free index is taken the same way. The reservation guarantees one is free.
   */
  public async takeIndex(slot: ReservedSlot): Promise<number> {
    for (let draw = 0; draw < RANDOM_DRAWS; draw++) {
      const index = randomInt(slot.size)
      if (await this.insertEntry(slot.statusListId, index)) return index
    }
    for (;;) {
      const [free] = await this.em.fork().execute<{ index: number | null }[]>(
        `select min(g) as "index" from generate_series(0, ? - 1) as g
          where not exists (select 1 from "status_list_entries" e where e."status_list_id" = ? and e."index" = g)`,
        [slot.size, slot.statusListId],
      )
      if (free?.index === null || free?.index === undefined)
        throw new Error(`Status list ${slot.statusListId} has no free index despite a reserved slot`)
      if (await this.insertEntry(slot.statusListId, Number(free.index))) return Number(free.index)
    }
  }

  /**
   * Sets the entry's bit and moves the list's revision, in the caller's transaction when there is one (call inside
   * `transactional()` to record it together with the record's pending change; a fork's own transaction would wait
   * for the caller's on PGlite's one connection).
   * @returns false when the bit already had that value
   */
  public async setBit(statusListId: string, index: number, value: boolean): Promise<boolean> {
    const changed = await this.em.nativeUpdate(
      StatusListEntryRow,
      { statusList: statusListId, index, value: !value },
      { value, updatedAt: new Date() },
    )
    if (changed === 0) return false
    await this.em.execute(
      `update "status_lists" set "revision" = "revision" + 1, "updated_at" = now() where "id" = ?`,
      [statusListId],
    )
    return true
  }

  /** The indices whose bit is set. */
  public async setIndices(statusListId: string): Promise<number[]> {
    const rows = await this.em
      .fork()
      .find(StatusListEntryRow, { statusList: statusListId, value: true }, { fields: ['index'] })
    return rows.map((row) => row.index)
  }

  /**
   * Stores the list signed at `revision`, unless a newer one is stored already (publications of the same list may
   * overlap: the newest wins).
   */
  public async storePublished(
    statusListId: string,
    revision: number,
    signed: Partial<Pick<StatusList, 'credential' | 'token'>>,
  ) {
    await this.em
      .fork()
      .nativeUpdate(
        StatusList,
        { id: statusListId, publishedRevision: { $lt: revision } },
        { ...signed, publishedRevision: revision, updatedAt: new Date() },
      )
  }

  private async insertEntry(statusListId: string, index: number): Promise<boolean> {
    const rows = await this.em.fork().execute<{ id: string }[]>(
      `insert into "status_list_entries" ("id", "created_at", "updated_at", "status_list_id", "index", "value")
        values (?, now(), now(), ?, ?, false)
        on conflict ("status_list_id", "index") do nothing returning "id"`,
      [randomUUID(), statusListId, index],
    )
    return rows.length === 1
  }
}
