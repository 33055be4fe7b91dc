import type { MailMessage } from '../../infra/mail/mailer'
import { escapeHtml } from '../../infra/http/escape-html'
import { linkQrCode } from '../../infra/mail/qr-code'

export interface CredentialOfferMailInput {
  to: string
  orgName: string
  /** The (short) invitation link the holder's wallet opens. */
  invitationUrl: string
  /** Names of the credential's types, to say what is offered. */
  credentialTypes: string[]
}

/** One offer mail: who offers what, the link for a wallet, and the same link as a QR code to scan. */
export async function buildCredentialOfferMail(input: CredentialOfferMailInput): Promise<MailMessage> {
  const what = input.credentialTypes.filter((type) => type !== 'VerifiableCredential').join(', ') || 'a credential'
  const qrCode = await linkQrCode(input.invitationUrl)
  const text = [
    'Hello,',
    '',
    `${input.orgName} offers you ${what}.`,
    '',
    'Open this link with your digital wallet to receive it:',
    input.invitationUrl,
    '',
    'Or scan the QR code in this mail with your wallet app.',
  ].join('\n')
  const html = [
    '<p>Hello,</p>',
    `<p><strong>${escapeHtml(input.orgName)}</strong> offers you ${escapeHtml(what)}.</p>`,
    `<p><a href="${escapeHtml(input.invitationUrl)}">Receive the credential with your wallet</a></p>`,
    `<p><img src="${qrCode}" alt="QR code of the credential offer" width="256" height="256"></p>`,
    `<p>If the link does not open your wallet, copy it into the wallet: ${escapeHtml(input.invitationUrl)}</p>`,
  ].join('\n')
  return { to: input.to, subject: `${input.orgName} offers you a credential`, text, html }
}
