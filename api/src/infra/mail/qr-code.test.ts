import { PNG } from 'pngjs'
import QRCode from 'qrcode'
import { linkQrCode } from './qr-code'

const LINK = `https://idplane.example/s/7Hq2xK9v?oob=${'eyJ0eXAiOiJKV1QifQ'.repeat(12)}`

function decode(dataUrl: string): PNG {
  const [header, body] = dataUrl.split(',')
  expect(header).toBe('data:image/png;base64')
  return PNG.sync.read(Buffer.from(body ?? '', 'base64'))
}

describe('linkQrCode', () => {
  it("draws the same pixels as qrcode's default PNG, as grayscale in fewer bytes", async () => {
    const ours = await linkQrCode(LINK)
    const reference = await QRCode.toDataURL(LINK, {
      type: 'image/png',
      errorCorrectionLevel: 'M',
      margin: 2,
      width: 256,
    })
    const [image, expected] = [decode(ours), decode(reference)]
    expect([image.width, image.height]).toEqual([256, 256])
    expect([image.width, image.height]).toEqual([expected.width, expected.height])
    // pngjs decodes to RGBA whatever the file's colour type: compare the grey level and the opacity of every pixel.
    let dark = 0
    let different = 0
    for (let pixel = 0; pixel < image.width * image.height; pixel++) {
      const [grey, opacity] = [image.data[pixel * 4], image.data[pixel * 4 + 3]]
      if (grey !== expected.data[pixel * 4] || opacity !== expected.data[pixel * 4 + 3]) different++
      if (grey === 0) dark++
    }
    expect(different).toBe(0)
    // A QR code of this link, not a blank image.
    expect(dark).toBeGreaterThan(256 * 256 * 0.2)
    expect(ours.length).toBeLessThan(reference.length * 0.7)
  })

  it('draws another code for another link', async () => {
    const [first, second] = [decode(await linkQrCode(LINK)), decode(await linkQrCode(`${LINK}x`))]
    expect(Buffer.compare(first.data, second.data)).not.toBe(0)
  })
})
