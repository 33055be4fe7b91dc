import { createHash } from 'node:crypto'
import { html, MAIL_PAGE_CSP, renderPage } from './html-page'
import { shellQuote } from './curl-commands'

describe('mail page HTML', () => {
  it('escapes interpolated text and keeps interpolated HTML', () => {
    const name = `<img src=x onerror="alert('1')"> & co`
    const bold = html`<b>ok</b>`
    const rendered = html`<p title="${name}">${name}</p>
      ${bold}`.html
    const escaped = '&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt; &amp; co'
    expect(rendered.replace(/\s+</g, '<')).toBe(`<p title="${escaped}">${escaped}</p><b>ok</b>`)
  })

  it('allows exactly the inline style it renders', () => {
    const page = renderPage('T', html`<p>x</p>`)
    const style = /<style>(.*)<\/style>/s.exec(page)?.[1] ?? ''
    expect(MAIL_PAGE_CSP).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`)
    expect(MAIL_PAGE_CSP).not.toMatch(/script-src|unsafe/)
  })

  it('shell-quotes values with single quotes in them', () => {
    expect(shellQuote(`o'brien@example.com`)).toBe(`'o'\\''brien@example.com'`)
  })
})
