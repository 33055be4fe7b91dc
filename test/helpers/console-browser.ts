import { mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { AxeResults } from 'axe-core'
import type { BrowserContext, Page } from 'playwright-core'
import { observedCall, type ObservedCall } from './openapi-contract'

/**
 * What the console e2e watches in every page of a browser context: the API calls it makes (checked against the
 * OpenAPI document), refused content (CSP), uncaught errors, and accessibility problems found by axe.
 */
export interface ConsoleWatch {
  calls: ObservedCall[]
  refused: string[]
  pageErrors: string[]
  /** `<page label>: <rule> (<impact>): <help>` for each serious or critical axe violation. */
  violations: string[]
  audited: string[]
  /** Runs axe (WCAG 2 A and AA rules) on the page as it is now. */
  audit(page: Page, label: string): Promise<void>
  /** Saves a screenshot when CONSOLE_SCREENSHOTS_DIR is set (docs/console/ is written so). */
  screenshot(page: Page, name: string): Promise<void>
}

export function watchConsole(contexts: BrowserContext[]): ConsoleWatch {
  const watch: ConsoleWatch = {
    calls: [],
    refused: [],
    pageErrors: [],
    violations: [],
    audited: [],
    audit: async (page, label) => {
      const result = await runAxe(page)
      watch.audited.push(label)
      for (const violation of result.violations) {
        if (violation.impact === 'serious' || violation.impact === 'critical') {
          const where = violation.nodes
            .map((node) => node.target.join(' '))
            .slice(0, 3)
            .join(', ')
          watch.violations.push(`${label}: ${violation.id} (${violation.impact}): ${violation.help} at ${where}`)
        }
      }
    },
    screenshot: async (page, name) => {
      const dir = process.env.CONSOLE_SCREENSHOTS_DIR
      if (!dir) return
      mkdirSync(dir, { recursive: true })
      await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false })
    },
  }
  for (const context of contexts) {
    context.on('request', (request) => {
      const call = observedCall(request.method(), request.url(), request.postData())
      if (call) watch.calls.push(call)
    })
    context.on('page', (page) => watchPage(page, watch))
  }
  return watch
}

/** axe-core's browser build, evaluated in the page (DevTools evaluation is not subject to the page's CSP). */
let axeSource: string | undefined

async function runAxe(page: Page): Promise<AxeResults> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')
  // Strings, not functions: the test project has no DOM types, and the code runs in the page.
  const hasAxe = (await page.evaluate("typeof window.axe === 'object'")) as boolean
  if (!hasAxe) await page.evaluate(axeSource)
  return (await page.evaluate(
    "window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })",
  )) as AxeResults
}

function watchPage(page: Page, watch: ConsoleWatch): void {
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
      watch.refused.push(message.text())
  })
  page.on('pageerror', (error) => watch.pageErrors.push(error.message))
}
