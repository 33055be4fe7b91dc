import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startApi, type TestApi } from '../helpers/api'
import { closeServer } from '../helpers/ports'
import { hasBrowser, launchBrowser } from '../helpers/browser'

jest.setTimeout(180_000)

const hasChromium = hasBrowser('explorer browser test')

const describeWithBrowser = hasChromium ? describe : describe.skip

describeWithBrowser('API explorer in a browser', () => {
  let api: TestApi
  let server: Server

  beforeAll(async () => {
    api = await startApi()
    server = await new Promise<Server>((resolve) => {
      const listening = api.app.listen(0, '127.0.0.1', () => resolve(listening))
    })
  })

  afterAll(async () => {
    await closeServer(server)
    await api?.stop()
  })

  it('opens /api and shows the endpoint groups by resource', async () => {
    const browser = await launchBrowser()
    try {
      const page = await browser.newPage()
      // The security headers' CSP (issue 8) must leave the explorer working: no refused script, style or image.
      const refused: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) {
          refused.push(message.text())
        }
      })
      const { port } = server.address() as AddressInfo
      const response = await page.goto(`http://127.0.0.1:${port}/api`, { waitUntil: 'load' })
      expect(response?.headers()['content-security-policy']).toMatch(/frame-ancestors 'none'/)
      await page.waitForSelector('.opblock-tag', { timeout: 30_000 })
      const groups = (await page.locator('.opblock-tag').allTextContents()).map((text) => text.trim())
      for (const expected of ['Authentication', 'Organizations', 'Invitations and membership', 'Agents', 'Health']) {
        expect(groups.some((group) => group.startsWith(expected))).toBe(true)
      }
      await expect(page.locator('.btn.authorize').count()).resolves.toBeGreaterThan(0)
      expect(refused).toEqual([])
    } finally {
      await browser.close()
    }
  })
})
