import type { SqlClient } from './sql-client'

/**
 * The agent's tables. Every statement is idempotent, so running them at each start is the migration.
 * `records` holds Credo records per agent context (the base wallet or a tenant), tags as jsonb under a GIN
 * index (jsonb_path_ops serves the `@>` containment the query translation produces). Tenants are Credo records in
 * the base context (agent/src/tenancy), so they need no table; databases from before keep an unused `tenants`.
 */
const STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS records (
    context_id text NOT NULL,
    type text NOT NULL,
    id text NOT NULL,
    value jsonb NOT NULL,
    tags jsonb NOT NULL DEFAULT '{}'::jsonb,
    seq bigserial,
    PRIMARY KEY (context_id, type, id)
  )`,
  `CREATE INDEX IF NOT EXISTS records_tags_idx ON records USING gin (tags jsonb_path_ops)`,
  // Dropped: without statistics the planner took it for an update by key and read every record of the type; the
  // key serves every lookup, and ordered reads of a type are rare (a mirror load, a query the mirror cannot answer).
  `DROP INDEX IF EXISTS records_context_type_seq_idx`,
  `CREATE TABLE IF NOT EXISTS kms_keys (
    context_id text NOT NULL,
    key_id text NOT NULL,
    sealed text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, key_id)
  )`,
  `CREATE TABLE IF NOT EXISTS outbox_events (
    id uuid PRIMARY KEY,
    kind text NOT NULL,
    body text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    seq bigserial,
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    delivered_at timestamptz,
    last_error text
  )`,
  // DIDComm envelopes not yet taken by the other agent, sent again until they are (transport/outbound-queue.ts).
  `CREATE TABLE IF NOT EXISTS outbound_messages (
    id uuid PRIMARY KEY,
    endpoint text NOT NULL,
    payload text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    seq bigserial,
    attempts integer NOT NULL DEFAULT 1,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error text
  )`,
  `CREATE INDEX IF NOT EXISTS outbound_messages_due_idx ON outbound_messages (next_attempt_at)`,
  // Digests of the DIDComm envelopes processed, so a resent one is dropped (transport/taken-envelopes.ts).
  `CREATE TABLE IF NOT EXISTS inbound_envelopes (
    digest text PRIMARY KEY,
    taken_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX IF NOT EXISTS inbound_envelopes_taken_idx ON inbound_envelopes (taken_at)`,
  `CREATE INDEX IF NOT EXISTS outbox_events_pending_idx ON outbox_events (next_attempt_at) WHERE delivered_at IS NULL`,
  // Delivered events are deleted now; rows an older version marked delivered are dropped once.
  `DELETE FROM outbox_events WHERE delivered_at IS NOT NULL`,
  // Bodies are sent byte for byte as written (a resent duplicate equals the first send); jsonb would reorder them.
  `DO $$ BEGIN
    IF (SELECT data_type FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'outbox_events' AND column_name = 'body') = 'jsonb' THEN
      ALTER TABLE outbox_events ALTER COLUMN body TYPE text;
    END IF;
  END $$`,
]

export async function migrateSchema(sql: SqlClient): Promise<void> {
  for (const statement of STATEMENTS) await sql.query(statement)
}
