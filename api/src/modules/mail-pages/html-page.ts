import { createHash } from 'node:crypto'
import type { Response } from 'express'
import { escapeHtml } from '../../infra/http/escape-html'

/** HTML that is already escaped; page builders only concatenate these. */
export interface Html {
  readonly html: string
}

/** Template tag: interpolated strings are escaped, interpolated `Html` (and arrays of it) are kept. */
export function html(parts: TemplateStringsArray, ...values: (string | number | Html | Html[])[]): Html {
  let out = parts[0] ?? ''
  values.forEach((value, index) => {
    const items = Array.isArray(value) ? value : [value]
    out += items.map((item) => (typeof item === 'object' ? item.html : escapeHtml(String(item)))).join('')
    out += parts[index + 1] ?? ''
  })
  return { html: out }
}

const STYLE = [
  'body{font-family:system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}',
  'h1{font-size:1.5rem}',
  'pre{background:#f3f3f3;padding:.75rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}',
  'button{font-size:1rem;padding:.5rem 1rem;cursor:pointer}',
  '.ok{color:#146c2e}.failed{color:#a4161a}',
].join('')

/**
 * The pages' Content-Security-Policy: nothing loads, no script runs, the one inline style is allowed by its
 * hash, forms post only to this origin, and no other site may frame the page.
 */
export const MAIL_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** A whole page: title, the one stylesheet, the body. */
export function renderPage(title: string, body: Html): string {
  return (
    '<!doctype html>\n' +
    html`<html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
      </head>
    </html>`.html +
    html`<title>${title}</title><style>${{ html: STYLE }}</style></head><body>${body}</body></html>`.html
  )
}

/**
 * Sends a page with its own headers: these pages carry codes and ids in their URL and content, so they are
 * not cached, send no referrer, and cannot be framed or sniffed as anything else.
 */
export function sendPage(res: Response, status: number, title: string, body: Html): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': MAIL_PAGE_CSP,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
    })
    .send(renderPage(title, body))
}
