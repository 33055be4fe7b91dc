import type { MailMessage } from '../../infra/mail/mailer'
import { escapeHtml } from '../../infra/http/escape-html'

export interface InvitationMailInput {
  to: string
  invitationId: string
  orgName: string
  /** Who invited, as a person reads it; absent when an organization's API client invited. */
  inviter?: string
  /** Base URL of the front end (the client alias's url). */
  frontEndUrl: string
  /** Product name shown to the invitee (the client alias's name). */
  platformName: string
}

/** The link in the mail: the front end shows the invitation and calls `PUT /users/invitations/:invitationId`. */
export function invitationLink(frontEndUrl: string, invitationId: string): string {
  return `${frontEndUrl.replace(/\/$/, '')}/invitations?invitationId=${encodeURIComponent(invitationId)}`
}

/** The invitation mail: names the organization and the inviter, and tells a newcomer to sign up first. */
export function buildInvitationMail(input: InvitationMailInput): MailMessage {
  const link = invitationLink(input.frontEndUrl, input.invitationId)
  const who = input.inviter ? `${input.inviter} invited you` : `You are invited`
  const lines = [
    'Hello,',
    '',
    `${who} to join the organization "${input.orgName}" on ${input.platformName}.`,
    '',
    'Open this link to accept or reject the invitation:',
    link,
    '',
    `If you have no ${input.platformName} account yet, sign up first with this e-mail address (${input.to}), ` +
      'then open the link again.',
    '',
    'If you did not expect this invitation, you can ignore this mail.',
  ]
  const html = [
    '<p>Hello,</p>',
    `<p>${escapeHtml(who)} to join the organization <strong>${escapeHtml(input.orgName)}</strong> on ` +
      `${escapeHtml(input.platformName)}.</p>`,
    `<p><a href="${escapeHtml(link)}">Accept or reject the invitation</a></p>`,
    `<p>If you have no ${escapeHtml(input.platformName)} account yet, sign up first with this e-mail address ` +
      `(${escapeHtml(input.to)}), then open the link again.</p>`,
    '<p>If you did not expect this invitation, you can ignore this mail.</p>',
  ]
  return {
    to: input.to,
    subject: `Invitation to join ${input.orgName} on ${input.platformName}`,
    text: lines.join('\n'),
    html: html.join('\n'),
  }
}
