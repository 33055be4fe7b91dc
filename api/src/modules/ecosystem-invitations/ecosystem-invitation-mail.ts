import type { MailMessage } from '../../infra/mail/mailer'
import { escapeHtml } from '../../infra/http/escape-html'
import { ECOSYSTEM_INVITATION_PAGE_PATH } from './ecosystem-invitation.page'

export interface EcosystemInvitationMailInput {
  to: string
  ecosystemId: string
  ecosystemName: string
  leadOrgName: string
  /** The invited organization. */
  orgId: string
  orgName: string
  /** Base URL of the front end (the first client alias). */
  frontEndUrl: string
  platformName: string
}

/**
 * The link in the mail: the front end (or, for an alias pointing at the API, the API's own page,
 * ecosystem-invitation.page.ts) shows how to call `PUT /v1/ecosystem/invitation/status`.
 */
export function ecosystemInvitationLink(frontEndUrl: string, ecosystemId: string, orgId: string): string {
  const query = new URLSearchParams({ ecosystemId, orgId })
  return `${frontEndUrl.replace(/\/$/, '')}${ECOSYSTEM_INVITATION_PAGE_PATH}?${query.toString()}`
}

/** The mail to each owner of an invited organization: names the ecosystem, its lead and how to answer. */
export function buildEcosystemInvitationMail(input: EcosystemInvitationMailInput): MailMessage {
  const link = ecosystemInvitationLink(input.frontEndUrl, input.ecosystemId, input.orgId)
  const what =
    `The organization "${input.leadOrgName}" invited your organization "${input.orgName}" ` +
    `to join the ecosystem "${input.ecosystemName}" on ${input.platformName}.`
  const lines = [
    'Hello,',
    '',
    what,
    '',
    'An owner or admin of your organization can accept or reject the invitation here:',
    link,
    '',
    `With the API: PUT /v1/ecosystem/invitation/status?status=accepted (or rejected) with the body ` +
      `{"ecosystemId":"${input.ecosystemId}","orgId":"${input.orgId}"}.`,
    '',
    'If you did not expect this invitation, you can ignore this mail.',
  ]
  const html = [
    '<p>Hello,</p>',
    `<p>${escapeHtml(what)}</p>`,
    `<p><a href="${escapeHtml(link)}">Accept or reject the invitation</a> (an owner or admin of your organization).</p>`,
    '<p>If you did not expect this invitation, you can ignore this mail.</p>',
  ]
  return {
    to: input.to,
    subject: `Invitation to join the ecosystem ${input.ecosystemName} on ${input.platformName}`,
    text: lines.join('\n'),
    html: html.join('\n'),
  }
}
