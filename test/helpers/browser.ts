import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
import { requireTools } from './test-tools'

/** Debian's chromium; playwright's own browser download cannot work here (no network). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Whether a browser suite runs: chromium there, or a SKIP line outside CI, or a failed file on CI. */
export function hasBrowser(suite: string): boolean {
  return requireTools(suite, () => (existsSync(CHROMIUM) ? [] : [`chromium at ${CHROMIUM} (apt-get install chromium)`]))
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
