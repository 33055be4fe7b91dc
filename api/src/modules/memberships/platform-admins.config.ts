import type { ConfigSection } from '../../infra/config-section'

export interface PlatformAdminsConfig {
  /** PLATFORM_ADMIN_EMAILS, normalized (trimmed, lower case): users who are platform admins by configuration. */
  emails: readonly string[]
}

/**
 * PLATFORM_ADMIN_EMAILS: comma-separated addresses. How the first platform admin is made: nobody can grant the
 * `platform_admin` role before someone holds it (docs/decisions.md, "Platform admins").
 */
export const platformAdminsConfig: ConfigSection<PlatformAdminsConfig> = {
  name: 'platformAdmins',
  read: (env) => {
    const emails = (env.string('PLATFORM_ADMIN_EMAILS') ?? '')
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter((email) => email.length > 0)
    if (emails.some((email) => !/^[^\s@]+@[^\s@]+$/.test(email))) {
      env.problem('PLATFORM_ADMIN_EMAILS', 'must be a comma-separated list of e-mail addresses')
    }
    return { emails: [...new Set(emails)] }
  },
}
