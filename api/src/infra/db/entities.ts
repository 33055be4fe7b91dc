import { User } from '../../modules/users/user.entity'
import { EmailVerification } from '../../modules/auth/email-verification.entity'
import { RefreshToken } from '../../modules/auth/refresh-token.entity'
import { RateLimitHit } from '../../modules/auth/rate-limit-hit.entity'
import { RevokedSession } from '../../modules/auth/revoked-session.entity'
import { OrgRole } from '../../modules/roles/org-role.entity'
import { UserOrgRole } from '../../modules/roles/user-org-role.entity'
import { Organization } from '../../modules/orgs/organization.entity'
import { OrgDid } from '../../modules/orgs/org-did.entity'
import { ClientCredential } from '../../modules/orgs/client-credential.entity'
import { Invitation } from '../../modules/invitations/invitation.entity'
import { OrgAgent } from '../../modules/agents/org-agent.entity'
import { AgentPortCounter } from '../../modules/agents/agent-port-counter.entity'
import { AgentEvent } from '../../modules/agents/agent-event.entity'
import { MailOutboxEntry } from '../mail/mail-outbox.entity'

/** Every entity the API persists; listed explicitly so discovery never scans the file system. */
export const ENTITIES = [
  User,
  EmailVerification,
  RefreshToken,
  RateLimitHit,
  RevokedSession,
  OrgRole,
  UserOrgRole,
  Organization,
  OrgDid,
  ClientCredential,
  Invitation,
  OrgAgent,
  AgentPortCounter,
  AgentEvent,
  MailOutboxEntry,
]
