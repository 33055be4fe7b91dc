import { signUpCurl, verificationMailCurl, verifyCurl } from './curl-commands'
import { html, type Html } from './html-page'

/** Path of the verification page; the mailed link is `<client alias url>` + this (auth/verification-mail.ts). */
export const VERIFY_EMAIL_PAGE_PATH = '/verify-email-success'

/**
 * What the mailed link opens: a button that verifies. The GET itself changes nothing, so a mail scanner
 * that follows links cannot spend the code.
 */
export function confirmPage(publicUrl: string, email: string, code: string): Html {
  return html`<h1>Verify your e-mail address</h1>
    <p>Confirm that <strong>${email}</strong> is your address.</p>
    <form method="post" action="${VERIFY_EMAIL_PAGE_PATH}">
      <input type="hidden" name="email" value="${email}" />
      <input type="hidden" name="verificationCode" value="${code}" />
      <button type="submit">Verify my address</button>
    </form>
    <h2>Or from a terminal</h2>
    <pre>${verifyCurl(publicUrl, email, code)}</pre>`
}

export function verifiedPage(publicUrl: string, email: string): Html {
  return html`<h1 class="ok">Address verified</h1>
    <p id="result" class="ok"><strong>${email}</strong> is verified. Next, sign up with it:</p>
    <pre>${signUpCurl(publicUrl, email)}</pre>`
}

export function verificationFailedPage(publicUrl: string, message: string, email?: string): Html {
  return html`<h1 class="failed">Verification failed</h1>
    <p id="result" class="failed">${message}</p>
    <p>Ask for a new verification mail and open the link in it:</p>
    <pre>${verificationMailCurl(publicUrl, email ?? '<your address>')}</pre>`
}
