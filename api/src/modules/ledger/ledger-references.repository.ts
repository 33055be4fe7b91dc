import { injectable } from 'inversify'
import { EntityManager } from '@mikro-orm/postgresql'
import type { LedgerReference, LedgerReferenceKind, LedgerReferenceSource } from './ledger-references'
import { BaseRepository } from '../../infra/db/base.repository'
import { LedgerTransaction } from './ledger-transaction.entity'

/**
 * Where each kind of record keeps its ledger id. Read by table name, not through the schemas and cred-defs
 * modules' entities: the ledger check is a platform-wide read of two columns, and the ledger module depends on no
 * resource module for it (test/integration/ledger.int.test.ts covers these names).
 */
const REFERENCE_QUERIES: Record<LedgerReferenceKind, string> = {
  schema: `select id, ledger_id as ledger_id from credential_schemas
            where type = 'INDY' and ledger_id is not null and (?::uuid is null or id > ?::uuid)
            order by id limit ?`,
  credentialDefinition: `select id, credential_definition_id as ledger_id from credential_definitions
            where credential_definition_id is not null and (?::uuid is null or id > ?::uuid)
            order by id limit ?`,
}

/** The platform's records that name ledger objects (for the record-to-ledger check). */
@injectable()
export class LedgerReferencesRepository extends BaseRepository<LedgerTransaction> implements LedgerReferenceSource {
  public constructor(em: EntityManager) {
    super(em, LedgerTransaction)
  }

  public async referencesPage(
    kind: LedgerReferenceKind,
    afterRecordId: string | undefined,
    limit: number,
  ): Promise<LedgerReference[]> {
    const after = afterRecordId ?? null
    const rows = await this.em
      .fork()
      .execute<{ id: string; ledger_id: string }[]>(REFERENCE_QUERIES[kind], [after, after, limit])
    return rows.map((row) => ({ recordId: row.id, kind, ledgerId: row.ledger_id }))
  }
}
