import type { ApiModule } from '../infra/api-module'
import { healthModule } from './health/health.module'
import { usersModule } from './users/users.module'
import { membershipsModule } from './memberships/memberships.module'
import { authModule } from './auth/auth.module'
import { orgsModule } from './orgs/orgs.module'
import { invitationsModule } from './invitations/invitations.module'
import { userRolesModule } from './user-roles/user-roles.module'
import { agentsModule } from './agents/agents.module'
import { mailPagesModule } from './mail-pages/mail-pages.module'
import { shortUrlsModule } from './short-urls/short-urls.module'
import { connectionsModule } from './connections/connections.module'
import { messagesModule } from './messages/messages.module'
import { schemasModule } from './schemas/schemas.module'
import { credDefsModule } from './cred-defs/cred-defs.module'
import { ecosystemsModule } from './ecosystems/ecosystems.module'
import { ecosystemMembersModule } from './ecosystem-members/ecosystem-members.module'
import { ecosystemInvitationsModule } from './ecosystem-invitations/ecosystem-invitations.module'
import { proofsModule } from './proofs/proofs.module'
import { credentialsModule } from './credentials/credentials.module'
import { webhooksModule } from './webhooks/webhooks.module'
import { bulkIssuanceModule } from './bulk-issuance/bulk-issuance.module'
import { cloudWalletModule } from './cloud-wallet/cloud-wallet.module'
import { ledgerModule } from './ledger/ledger.module'
import { consoleModule } from './console/console.module'
import { tailsFilesModule } from './tails-files/tails-files.module'
import { revocationsModule } from './revocations/revocations.module'
import { statusListsModule } from './status-lists/status-lists.module'
import { oid4vcModule } from './oid4vc/oid4vc.module'
import { oid4vpModule } from './oid4vp/oid4vp.module'
import { x509Module } from './x509/x509.module'
import { cloudWalletOid4vcModule } from './cloud-wallet-oid4vc/cloud-wallet-oid4vc.module'

/**
 * Every resource module of the API, in the order their routes are registered and they are started (stopped in
 * reverse). Adding a module is its folder and one line here (docs/architecture.md, "Adding a module").
 */
export const API_MODULES: ApiModule[] = [
  healthModule,
  usersModule,
  membershipsModule,
  authModule,
  orgsModule,
  invitationsModule,
  userRolesModule,
  agentsModule,
  consoleModule,
  mailPagesModule,
  shortUrlsModule,
  connectionsModule,
  messagesModule,
  schemasModule,
  credDefsModule,
  // After cred-defs (its registries belong to definitions), before credentials and bulk issuance (their offers).
  revocationsModule,
  statusListsModule,
  ecosystemsModule,
  ecosystemMembersModule,
  ecosystemInvitationsModule,
  proofsModule,
  credentialsModule,
  bulkIssuanceModule,
  webhooksModule,
  cloudWalletModule,
  ledgerModule,
  tailsFilesModule,
  // OpenID4VC and x509 (issue 29): mounted only with HIDE_EXPERIMENTAL_OIDC_CONTROLLERS=false (oid4vc.config.ts).
  oid4vcModule,
  oid4vpModule,
  x509Module,
  cloudWalletOid4vcModule,
]
