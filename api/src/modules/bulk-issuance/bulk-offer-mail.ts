import type { MailMessage } from '../../infra/mail/mailer'
import { escapeHtml } from '../../infra/http/escape-html'
import { linkQrCode } from '../../infra/mail/qr-code'

export interface BulkOfferMailInput {
  to: string
  orgName: string
  invitationUrl: string
  credentialName: string
  /** From the execution request's body (spec: logo URL and platform name in the mails). */
  organizationLogoUrl?: string
  platformName?: string
}

/**
 * One bulk offer mail: the credentials module's offer mail plus the organization's logo and the platform's name
 * the execution request names (the credentials module's builder takes neither).
 */
export async function buildBulkOfferMail(input: BulkOfferMailInput): Promise<MailMessage> {
  const qrCode = await linkQrCode(input.invitationUrl)
  const via = input.platformName ? ` through ${input.platformName}` : ''
  const text = [
    'Hello,',
    '',
    `${input.orgName} offers you a ${input.credentialName} credential${via}.`,
    '',
    'Open this link with your digital wallet to receive it:',
    input.invitationUrl,
    '',
    'Or scan the QR code in this mail with your wallet app.',
  ].join('\n')
  const html = [
    ...(input.organizationLogoUrl
      ? [`<p><img src="${escapeHtml(input.organizationLogoUrl)}" alt="${escapeHtml(input.orgName)}" height="64"></p>`]
      : []),
    '<p>Hello,</p>',
    `<p><strong>${escapeHtml(input.orgName)}</strong> offers you a ${escapeHtml(input.credentialName)} credential${escapeHtml(via)}.</p>`,
    `<p><a href="${escapeHtml(input.invitationUrl)}">Receive the credential with your wallet</a></p>`,
    `<p><img src="${qrCode}" alt="QR code of the credential offer" width="256" height="256"></p>`,
    `<p>If the link does not open your wallet, copy it into the wallet: ${escapeHtml(input.invitationUrl)}</p>`,
  ].join('\n')
  const subject = `${input.orgName} offers you a ${input.credentialName} credential`
  return { to: input.to, subject, text, html }
}
