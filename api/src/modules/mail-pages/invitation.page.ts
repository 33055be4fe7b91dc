import type { RoledInvitation } from '../invitations/invitation-roles'
import { answerInvitationCurl, signInCurl, signUpCurl, verificationMailCurl, verifyCurl } from './curl-commands'
import { html, type Html } from './html-page'

/** Path of the invitation page; the mailed link is `<client alias url>` + this (invitations/invitation-mail.ts). */
export const INVITATION_PAGE_PATH = '/invitations'

const ADDRESS = '<the address this invitation was mailed to>'

/**
 * The invitation as the link's holder sees it: organization, roles, status, and how to answer it. The
 * invitee's address is not shown: the link may have been forwarded.
 */
export function invitationPage(publicUrl: string, { invitation, orgRoles }: RoledInvitation): Html {
  const roles = orgRoles.map((role) => role.name).join(', ') || 'none'
  const status =
    invitation.status === 'pending'
      ? html`<p id="status">This invitation is <strong>pending</strong>.</p>`
      : html`<p id="status">This invitation was already <strong>${invitation.status}</strong>.</p>`
  return html`<h1>Invitation to ${invitation.organization.name}</h1>
    <dl>
      <dt>Organization</dt>
      <dd id="organization">${invitation.organization.name}</dd>
      <dt>Role</dt>
      <dd id="roles">${roles}</dd>
    </dl>
    ${status}
    <h2>How to accept it</h2>
    <ol>
      <li>
        No account yet? Verify the address this invitation was sent to and sign up with it:
        <pre>
${verificationMailCurl(publicUrl, ADDRESS)}
# then open the link in the verification mail, or:
${verifyCurl(publicUrl, ADDRESS, '<code from the mail>')}
${signUpCurl(publicUrl, ADDRESS)}</pre
        >
      </li>
      <li>
        Sign in; the answer's <code>data.access_token</code> is your token:
        <pre>${signInCurl(publicUrl, ADDRESS)}</pre>
      </li>
      <li>
        Accept the invitation (or send <code>"rejected"</code> to decline it):
        <pre id="accept">${answerInvitationCurl(publicUrl, invitation.id, 'accepted')}</pre>
      </li>
    </ol>`
}

export function invitationMissingPage(): Html {
  return html`<h1 class="failed">Invitation not found</h1>
    <p id="result" class="failed">
      This invitation does not exist or was withdrawn. Ask the organization for a new one.
    </p>`
}

export function invitationLinkBrokenPage(): Html {
  return html`<h1 class="failed">Broken link</h1>
    <p id="result" class="failed">
      The link does not name an invitation. Open the link from the invitation mail again.
    </p>`
}
