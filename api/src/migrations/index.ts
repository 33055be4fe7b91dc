import type { MigrationObject } from '@mikro-orm/core'
import { Migration20261121000000Foundation } from './Migration20261121000000Foundation'
import { Migration20261122100000AgentProvisioning } from './Migration20261122100000AgentProvisioning'
import { Migration20261124060000AgentLifecycle } from './Migration20261124060000AgentLifecycle'
import { Migration20261124100000RevokedSessions } from './Migration20261124100000RevokedSessions'
import { Migration20261124110000MailOutbox } from './Migration20261124110000MailOutbox'
import { Migration20261124120000ShortUrls } from './Migration20261124120000ShortUrls'
import { Migration20261124130000Connections } from './Migration20261124130000Connections'
import { Migration20261124131000Messages } from './Migration20261124131000Messages'
import { Migration20261124160000CredentialSchemas } from './Migration20261124160000CredentialSchemas'
import { Migration20261124180000Ecosystems } from './Migration20261124180000Ecosystems'
import { Migration20261124150000ProofRecords } from './Migration20261124150000ProofRecords'
import { Migration20261124140000IssuanceRecords } from './Migration20261124140000IssuanceRecords'
import { Migration20261124170000Webhooks } from './Migration20261124170000Webhooks'
import { Migration20261124190000BulkIssuance } from './Migration20261124190000BulkIssuance'
import { Migration20261124200000CloudWallets } from './Migration20261124200000CloudWallets'
import { Migration20261124213000IndyDefinitions } from './Migration20261124213000IndyDefinitions'
import { Migration20261124214000BaseWalletAgent } from './Migration20261124214000BaseWalletAgent'
import { Migration20261124220000WalletRecords } from './Migration20261124220000WalletRecords'
import { Migration20261124223000Ledger } from './Migration20261124223000Ledger'
import { Migration20261128120000LedgerBindingsAndAnchor } from './Migration20261128120000LedgerBindingsAndAnchor'
import { Migration20261128131500LedgerIdForms } from './Migration20261128131500LedgerIdForms'

/** Every migration in order. Add new ones at the end; never edit one that has shipped. */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261121000000Foundation', class: Migration20261121000000Foundation },
  { name: 'Migration20261122100000AgentProvisioning', class: Migration20261122100000AgentProvisioning },
  { name: 'Migration20261124060000AgentLifecycle', class: Migration20261124060000AgentLifecycle },
  { name: 'Migration20261124100000RevokedSessions', class: Migration20261124100000RevokedSessions },
  { name: 'Migration20261124110000MailOutbox', class: Migration20261124110000MailOutbox },
  { name: 'Migration20261124120000ShortUrls', class: Migration20261124120000ShortUrls },
  { name: 'Migration20261124130000Connections', class: Migration20261124130000Connections },
  { name: 'Migration20261124131000Messages', class: Migration20261124131000Messages },
  { name: 'Migration20261124160000CredentialSchemas', class: Migration20261124160000CredentialSchemas },
  { name: 'Migration20261124180000Ecosystems', class: Migration20261124180000Ecosystems },
  { name: 'Migration20261124150000ProofRecords', class: Migration20261124150000ProofRecords },
  { name: 'Migration20261124140000IssuanceRecords', class: Migration20261124140000IssuanceRecords },
  { name: 'Migration20261124170000Webhooks', class: Migration20261124170000Webhooks },
  { name: 'Migration20261124190000BulkIssuance', class: Migration20261124190000BulkIssuance },
  { name: 'Migration20261124200000CloudWallets', class: Migration20261124200000CloudWallets },
  { name: 'Migration20261124213000IndyDefinitions', class: Migration20261124213000IndyDefinitions },
  { name: 'Migration20261124214000BaseWalletAgent', class: Migration20261124214000BaseWalletAgent },
  { name: 'Migration20261124220000WalletRecords', class: Migration20261124220000WalletRecords },
  { name: 'Migration20261124223000Ledger', class: Migration20261124223000Ledger },
  { name: 'Migration20261128120000LedgerBindingsAndAnchor', class: Migration20261128120000LedgerBindingsAndAnchor },
  { name: 'Migration20261128131500LedgerIdForms', class: Migration20261128131500LedgerIdForms },
]
