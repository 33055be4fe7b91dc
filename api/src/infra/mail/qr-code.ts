import QRCode from 'qrcode'

/**
 * qrcode hands `rendererOpts` to pngjs for a PNG (its types name them only for JPEG and WebP): colour type 0 writes one
 * grey sample per pixel instead of four RGBA ones.
 */
const OPTIONS: QRCode.QRCodeToDataURLOptionsOther & { rendererOpts: { colorType: number } } = {
  type: 'image/png',
  errorCorrectionLevel: 'M',
  margin: 2,
  width: 256,
  rendererOpts: { colorType: 0 },
}

/**
 * A link's QR code as a `data:` PNG URL, for the HTML part of a mail: the mail transport (mailer.ts) carries a text and
 * an HTML part but no attachments, so the image is inline (docs/decisions.md, "Credentials"). Every mail with a link
 * to scan (credential offers, bulk offers, proof requests) draws it here. Grayscale: the same pixels as qrcode's
 * default RGBA in about half the bytes, with a quarter of the bytes to filter and compress.
 */
export function linkQrCode(link: string): Promise<string> {
  return QRCode.toDataURL(link, OPTIONS)
}
