import { Migration } from '@mikro-orm/migrations'

const DID = '[1-9A-HJ-NP-Za-km-z]{21,22}'
/** `did:indy:<ns>:<did>/anoncreds/v0/SCHEMA/<name>/<version>` → `<did>:2:<name>:<version>`. */
const INDY_SCHEMA = `^did:indy:[^/]+:(${DID})/anoncreds/v0/SCHEMA/([^/]+)/([^/]+)$`
/** `did:indy:<ns>:<did>/anoncreds/v0/CLAIM_DEF/<seqNo>/<tag>` → `<did>:3:CL:<seqNo>:<tag>`. */
const INDY_CRED_DEF = `^did:indy:[^/]+:(${DID})/anoncreds/v0/CLAIM_DEF/([0-9]+)/([^/]+)$`
const LEGACY_SCHEMA = `^(${DID}):2:([^:/]+):([0-9.]+)$`
const LEGACY_CRED_DEF = `^(${DID}):3:CL:([0-9]+):([^:/]+)$`
/** The namespace of a did:indy DID (`did:indy:<ns>:<did>`), as a regexp_replace pattern. */
const NAMESPACE_OF_DID = `^did:indy:(.+):${DID}$`

/**
 * Ledger ids in the spec's legacy form (issue 22 item 1; docs/decisions.md, "Ledger id forms"): records keep the
 * legacy id in the columns clients read (`credential_schemas.ledger_id`, `credential_definitions.credential_definition_id`
 * and `.schema_ledger_id`) and the did:indy form, when the object has one, in new columns. Rows written before held
 * whichever form the agent answered: did:indy ids move to the new column and their legacy form takes their place;
 * legacy ids of a did:indy publisher get their did:indy form. A definition whose rewritten schema id and tag would
 * collide with another record's keeps its did:indy id (only a failed attempt could have made such a pair).
 */
export class Migration20261128131500LedgerIdForms extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "credential_schemas" add column "ledger_did_indy_id" varchar(2048) null;`)
    this.addSql(
      `alter table "credential_definitions" add column "credential_definition_did_indy_id" varchar(2048) null, add column "schema_did_indy_id" varchar(2048) null;`,
    )
    this.addSql(`update "credential_schemas" set "ledger_did_indy_id" = "ledger_id",
      "ledger_id" = regexp_replace("ledger_id", '${INDY_SCHEMA}', '\\1:2:\\2:\\3')
      where "ledger_id" ~ '${INDY_SCHEMA}';`)
    this.addSql(`update "credential_schemas" set "ledger_did_indy_id" = 'did:indy:'
        || regexp_replace("issuer_id", '${NAMESPACE_OF_DID}', '\\1') || ':'
        || regexp_replace("ledger_id", '${LEGACY_SCHEMA}', '\\1/anoncreds/v0/SCHEMA/\\2/\\3')
      where "ledger_did_indy_id" is null and "ledger_id" ~ '${LEGACY_SCHEMA}' and "issuer_id" ~ '${NAMESPACE_OF_DID}';`)
    this.addSql(`update "credential_definitions" d set "schema_did_indy_id" = d."schema_ledger_id",
      "schema_ledger_id" = regexp_replace(d."schema_ledger_id", '${INDY_SCHEMA}', '\\1:2:\\2:\\3')
      where d."schema_ledger_id" ~ '${INDY_SCHEMA}' and not exists (select 1 from "credential_definitions" o
        where o."organization_id" = d."organization_id" and o."tag" = d."tag" and o."id" <> d."id"
          and o."schema_ledger_id" = regexp_replace(d."schema_ledger_id", '${INDY_SCHEMA}', '\\1:2:\\2:\\3'));`)
    this.addSql(`update "credential_definitions" set "schema_did_indy_id" = 'did:indy:'
        || regexp_replace("publisher_did", '${NAMESPACE_OF_DID}', '\\1') || ':'
        || regexp_replace("schema_ledger_id", '${LEGACY_SCHEMA}', '\\1/anoncreds/v0/SCHEMA/\\2/\\3')
      where "schema_did_indy_id" is null and "schema_ledger_id" ~ '${LEGACY_SCHEMA}' and "publisher_did" ~ '${NAMESPACE_OF_DID}';`)
    this.addSql(`update "credential_definitions" set "credential_definition_did_indy_id" = "credential_definition_id",
      "credential_definition_id" = regexp_replace("credential_definition_id", '${INDY_CRED_DEF}', '\\1:3:CL:\\2:\\3')
      where "credential_definition_id" ~ '${INDY_CRED_DEF}';`)
    this.addSql(`update "credential_definitions" set "credential_definition_did_indy_id" = 'did:indy:'
        || regexp_replace("publisher_did", '${NAMESPACE_OF_DID}', '\\1') || ':'
        || regexp_replace("credential_definition_id", '${LEGACY_CRED_DEF}', '\\1/anoncreds/v0/CLAIM_DEF/\\2/\\3')
      where "credential_definition_did_indy_id" is null and "credential_definition_id" ~ '${LEGACY_CRED_DEF}'
        and "publisher_did" ~ '${NAMESPACE_OF_DID}';`)
  }

  override async down(): Promise<void> {
    this.addSql(`update "credential_schemas" set "ledger_id" = "ledger_did_indy_id"
      where "ledger_did_indy_id" is not null and "ledger_id" !~ '^did:indy:';`)
    this.addSql(`update "credential_definitions" set "schema_ledger_id" = "schema_did_indy_id"
      where "schema_did_indy_id" is not null;`)
    this.addSql(`update "credential_definitions" set "credential_definition_id" = "credential_definition_did_indy_id"
      where "credential_definition_did_indy_id" is not null;`)
    this.addSql(
      `alter table "credential_definitions" drop column "credential_definition_did_indy_id", drop column "schema_did_indy_id";`,
    )
    this.addSql(`alter table "credential_schemas" drop column "ledger_did_indy_id";`)
  }
}
