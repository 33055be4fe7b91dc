import QRCode from 'qrcode'

/**
 * A link's QR code as a `data:` PNG URL, for the HTML part of a mail: the mail transport (mailer.ts) carries a text and
 * an HTML part but no attachments, so the image is inline (docs/decisions.md, "Credentials"). Every mail with a link
 * to scan (credential offers, bulk offers, proof requests) draws it here.
 */
export function linkQrCode(link: string): Promise<string> {
  return QRCode.toDataURL(link, { type: 'image/png', errorCorrectionLevel: 'M', margin: 2, width: 256 })
}
