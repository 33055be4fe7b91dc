import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import type { OpenAPIObject } from 'openapi3-ts'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import request from 'supertest'
import { readLatestMail } from '../../api/src/infra/mail/file-mailer'
import { hasBrowser, launchBrowser } from '../helpers/browser'
import { watchConsole, type ConsoleWatch } from '../helpers/console-browser'
import { undocumentedCalls } from '../helpers/openapi-contract'
import { startPlatform, type Platform } from '../helpers/platform'
import { signUpAndSignIn, TEST_PASSWORD, verificationCodeOf, waitForMail } from '../helpers/auth-flow'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'
import { FAST_WEBHOOK_ENV } from '../helpers/webhook-fixtures'

jest.setTimeout(600_000)

const root = path.resolve(__dirname, '../..')
const hasChromium = hasBrowser('console browser test')
const describeWithBrowser = hasChromium ? describe : describe.skip

/** Agent round trips on a loaded 2-core machine can take tens of seconds. */
const SLOW_MS = 180_000
const ADMIN_EMAIL = 'console-admin@example.test'
const HOLDER_EMAIL = 'console-holder@example.test'

/**
 * Issue 26, "How it is checked": the web console in a real browser on the embedded platform (real agents, the
 * managed cloud-wallet agent, mail files). An admin signs up through the mailed code, creates an organization,
 * provisions its agent, publishes a JSON schema, issues a JSON-LD credential to a holder who uses the console's wallet
 * in a second browser context, requests and verifies a proof and reads the webhook delivery log; then an INDY run with
 * a predicate, and a bulk run with one bad row. Every page is checked with axe, every API call the console makes is
 * checked against the OpenAPI document, and no content may be refused by the CSP.
 */
describeWithBrowser('the web console', () => {
  let platform: Platform
  let receiver: WebhookReceiver
  let browser: Browser
  let adminContext: BrowserContext
  let holderContext: BrowserContext
  let admin: Page
  let holder: Page
  let watch: ConsoleWatch
  let orgId: string
  let indyOrgId: string
  const timings: Record<string, number> = {}

  const consoleUrl = (route: string) => `${platform.baseUrl}/console${route}`

  /**
   * Goes to a console route and waits for its page heading. When the heading does not come, the error says what the
   * page showed instead (its address and text): a failure on a loaded CI machine can then be read from the log.
   */
  async function open(page: Page, route: string, heading: string | RegExp): Promise<void> {
    await page.goto(consoleUrl(route))
    try {
      await page.getByRole('heading', { level: 1, name: heading }).waitFor({ timeout: 30_000 })
    } catch (error) {
      throw new Error(`${(error as Error).message}\nThe page showed instead: ${await shownOn(page, 800)}`)
    }
  }

  /** A page's address and text, for an error read from CI's log. */
  async function shownOn(page: Page | undefined, length: number): Promise<string> {
    if (!page) return '(no page)'
    const text = await page
      .locator('body')
      .innerText({ timeout: 5_000 })
      .catch((cause: unknown) => `(unreadable: ${(cause as Error).message})`)
    return `${page.url()}: ${text.replace(/\s+/g, ' ').slice(0, length)}`
  }

  /** A step of the walk whose failure says what both pages showed then (no screenshot reaches CI's log). */
  function step(name: string, work: () => Promise<void>, timeoutMs?: number): void {
    it(
      name,
      async () => {
        try {
          await work()
        } catch (error) {
          const pages = `The admin's page: ${await shownOn(admin, 1_500)}\nThe holder's page: ${await shownOn(holder, 600)}`
          throw new Error(`${(error as Error).message}\n${pages}`, { cause: error })
        }
      },
      timeoutMs,
    )
  }

  const region = (page: Page, name: string): Locator => page.getByRole('region', { name, exact: true })

  async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
    const started = Date.now()
    try {
      return await work()
    } finally {
      timings[label] = Date.now() - started
    }
  }

  beforeAll(async () => {
    // The console is served from its build; the agents run from dist/ too.
    if (!existsSync(path.join(root, 'dist', 'console', 'index.html'))) {
      execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'ignore' })
    }
    receiver = await startWebhookReceiver()
    platform = await startPlatform({
      ...FAST_WEBHOOK_ENV,
      CONSOLE_DIR: path.join(root, 'dist', 'console'),
      // The holder's wallet lives in the platform's own base-wallet agent, started on first use.
      CLOUD_WALLET_BASE_AGENT: 'managed',
      CLOUD_WALLET_BASE_AGENT_WAIT_MS: '240000',
    })
    browser = await launchBrowser()
    adminContext = await browser.newContext({ viewport: { width: 1280, height: 860 } })
    // The holder uses a phone-sized window: the console must work at 360 px wide.
    holderContext = await browser.newContext({ viewport: { width: 360, height: 740 } })
    watch = watchConsole([adminContext, holderContext])
    admin = await adminContext.newPage()
    holder = await holderContext.newPage()
  }, 600_000)

  // A failed step leaves both pages as they were: saved beside the run's log when CONSOLE_E2E_DEBUG_DIR is set.
  afterEach(async () => {
    const dir = process.env.CONSOLE_E2E_DEBUG_DIR
    if (!dir) return
    const name = expect.getState().currentTestName?.replace(/\W+/g, '-') ?? 'test'
    await admin?.screenshot({ path: path.join(dir, `${name}-admin.png`), fullPage: true }).catch(() => undefined)
    await holder?.screenshot({ path: path.join(dir, `${name}-holder.png`), fullPage: true }).catch(() => undefined)
  })

  afterAll(async () => {
    console.log(`console e2e timings (ms): ${JSON.stringify(timings)}`)
    await browser?.close()
    await platform?.stop()
    await receiver?.stop()
  }, 120_000)

  step('takes an admin through sign-up with the mailed code, an organization and its agent', async () => {
    await timed('signUp', async () => {
      await admin.goto(consoleUrl('/'))
      await admin.getByRole('heading', { name: 'Sign in' }).waitFor()
      await watch.audit(admin, 'sign in')
      await watch.screenshot(admin, 'sign-in')
      await admin.getByRole('link', { name: 'Create an account' }).click()
      await admin.getByLabel('E-mail address').fill(ADMIN_EMAIL)
      const previous = await readLatestMail(platform.api.dataDir, ADMIN_EMAIL)
      await admin.getByRole('button', { name: 'Send the code' }).click()
      const mail = await waitForMail(platform.api.dataDir, ADMIN_EMAIL, { previousId: previous?.id, timeoutMs: 30_000 })
      await admin.getByLabel('Verification code').fill(verificationCodeOf(mail))
      await watch.audit(admin, 'sign up (code)')
      await admin.getByRole('button', { name: 'Verify' }).click()
      await admin.getByLabel('First name').fill('Ada')
      await admin.getByLabel('Last name').fill('Admin')
      await admin.getByLabel('Password').fill(TEST_PASSWORD)
      await admin.getByRole('button', { name: 'Create the account' }).click()
      await admin.getByRole('heading', { level: 1, name: 'Organizations' }).waitFor()
    })
    await watch.audit(admin, 'organizations (empty)')

    await timed('createOrgs', async () => {
      orgId = await createOrganization('Acme Issuer', 'key')
      // A second organization for the INDY run, provisioned meanwhile with a did:indy.
      indyOrgId = await createOrganization('Indy Verifier', 'indy')
    })
    await timed('agentReady', async () => {
      await open(admin, `/orgs/${orgId}/agent`, 'Agent and DIDs')
      await region(admin, 'Status').getByText('DID_CREATED').waitFor({ timeout: SLOW_MS })
      await region(admin, 'DIDs').getByText('did:key:').first().waitFor()
    })
    await watch.audit(admin, 'agent')
    await watch.screenshot(admin, 'agent')
    await admin.getByRole('link', { name: 'Overview' }).click()
    await admin.getByRole('heading', { level: 1, name: 'Acme Issuer' }).waitFor()
    await watch.audit(admin, 'organization overview')
    await watch.screenshot(admin, 'organization-overview')
  })

  async function createOrganization(name: string, method: 'key' | 'indy'): Promise<string> {
    await open(admin, '/orgs', 'Organizations')
    const form = region(admin, 'Create an organization')
    await form.getByLabel(/^Name/).fill(name)
    await form.getByLabel('Description').fill(`${name}, created in the console`)
    await form.getByRole('button', { name: 'Create' }).click()
    await admin.getByRole('heading', { level: 1, name: 'Agent and DIDs' }).waitFor()
    const id = /\/orgs\/([0-9a-f-]{36})\/agent/.exec(admin.url())?.[1] ?? ''
    await admin.getByLabel('First DID method').selectOption(method)
    await admin.getByRole('button', { name: 'Provision' }).click()
    // Live progress: the steps show while the agent starts.
    await region(admin, 'Status').waitFor()
    return id
  }

  step('publishes a JSON schema with the form builder', async () => {
    await open(admin, `/orgs/${orgId}/schemas`, 'Schemas')
    await watch.audit(admin, 'schemas (empty)')
    await admin.getByRole('link', { name: 'New schema' }).click()
    await admin.getByRole('heading', { level: 1, name: 'New schema' }).waitFor()
    await region(admin, 'Schema').getByLabel(/^Name/).fill('Employee badge')
    const first = admin.getByRole('group', { name: 'Attribute 1' })
    await first.getByLabel(/^Name/).fill('name')
    await first.getByLabel('Display name').fill('Full name')
    await first.getByLabel('Maximum length').fill('100')
    await admin.getByRole('button', { name: 'Add an attribute' }).click()
    const second = admin.getByRole('group', { name: 'Attribute 2' })
    await second.getByLabel(/^Name/).fill('level')
    await second.getByLabel('Display name').fill('Level')
    await second.getByLabel('Data type').selectOption('integer')
    await second.getByLabel('Minimum').fill('1')
    await watch.audit(admin, 'schema builder')
    await watch.screenshot(admin, 'schema-builder')
    await admin.getByRole('button', { name: 'Publish the schema' }).click()
    await admin.getByRole('heading', { level: 1, name: 'Employee badge 1.0' }).waitFor()
    await expectText(region(admin, 'Attributes'), 'integer')
    await watch.audit(admin, 'schema detail')
  })

  step('registers a webhook with a generated secret', async () => {
    await open(admin, `/orgs/${orgId}/webhooks`, 'Webhooks')
    await admin.getByLabel('URL').fill(`${receiver.url}/console`)
    await admin.getByRole('button', { name: 'Generate a secret' }).click()
    const secret = await admin.getByLabel('Secret').inputValue()
    expect(secret.length).toBeGreaterThanOrEqual(16)
    receiver.setSecret('/console', secret)
    await admin.getByRole('button', { name: 'Register' }).click()
    await admin.getByText('Webhook registered').waitFor()
    // Shown once, to copy.
    expect(await admin.getByLabel('Webhook secret').inputValue()).toBe(secret)
    await watch.audit(admin, 'webhooks')
  })

  let holderConnectionToOrg: string

  step('connects a holder, who creates a cloud wallet in a second browser, through an invitation link', async () => {
    await signUpAndSignIn(platform.api.app, platform.api.dataDir, HOLDER_EMAIL)
    const link = await createInvitation(orgId)
    await watch.screenshot(admin, 'connections-invitation')
    await timed('holderWallet', async () => {
      await holder.goto(consoleUrl('/wallet'))
      await holder.getByLabel('E-mail address').fill(HOLDER_EMAIL)
      await holder.getByLabel('Password').fill(TEST_PASSWORD)
      await holder.getByRole('button', { name: 'Sign in' }).click()
      // Back on the page it asked for, which offers to create the wallet.
      await holder.getByRole('heading', { level: 1, name: 'Create your wallet' }).waitFor()
      await watch.audit(holder, 'wallet creation (360 px class)')
      await holder.getByLabel('Wallet label').fill('Holly')
      await holder.getByRole('button', { name: 'Create the wallet' }).click()
      await holder.getByRole('heading', { level: 1, name: 'Your wallet' }).waitFor({ timeout: SLOW_MS })
    })
    await timed('connect', async () => {
      holderConnectionToOrg = await receiveInvitation(link, 'Acme Issuer')
      await waitForOrgConnection(orgId)
    })
    await watch.audit(holder, 'wallet connection')
  })

  async function createInvitation(org: string): Promise<string> {
    await open(admin, `/orgs/${org}/connections`, 'Connections')
    await admin.getByRole('button', { name: 'Create an invitation' }).click()
    const link = await admin.getByRole('textbox', { name: 'Invitation link' }).inputValue()
    expect(link).toMatch(/^http/)
    await admin.getByRole('img', { name: 'QR code of the invitation link' }).waitFor()
    await watch.audit(admin, 'connections with an invitation')
    return link
  }

  async function receiveInvitation(link: string, label: string): Promise<string> {
    await open(holder, '/wallet/receive', 'Open an invitation')
    await holder.getByRole('textbox', { name: /^Invitation link/ }).fill(link)
    await holder.getByRole('button', { name: 'Accept the invitation' }).click()
    await holder.getByRole('heading', { level: 1, name: label }).waitFor({ timeout: SLOW_MS })
    await holder.getByText('completed').first().waitFor({ timeout: SLOW_MS })
    return /\/wallet\/connections\/([^/?#]+)/.exec(holder.url())?.[1] ?? ''
  }

  async function waitForOrgConnection(org: string): Promise<void> {
    await open(admin, `/orgs/${org}/connections`, 'Connections')
    await region(admin, 'Connections').getByText('completed').first().waitFor({ timeout: SLOW_MS })
  }

  step('issues a JSON-LD credential that the holder sees and accepts in the wallet, states updating live', async () => {
    expect(holderConnectionToOrg).not.toBe('')
    await open(admin, `/orgs/${orgId}/issuance`, 'Issuance')
    const form = region(admin, 'Issue a credential')
    await form.getByLabel('Credential').selectOption({ label: 'JSON-LD: Employee badge 1.0' })
    await form.getByLabel('Full name').fill('Holly Holder')
    await form.getByLabel('Level').fill('3')
    await form.getByLabel('Connection').locator('option').first().waitFor({ state: 'attached', timeout: 30_000 })
    await watch.audit(admin, 'issuance form')
    await watch.screenshot(admin, 'issuance')
    await form.getByRole('button', { name: 'Offer the credential' }).click()
    await form.getByText('Offer sent to the connection.').waitFor()

    await timed('holderAcceptsCredential', async () => {
      await open(holder, '/wallet/credentials', 'Credentials')
      const offers = region(holder, 'Offers')
      await offers.getByText('Holly Holder').waitFor({ timeout: SLOW_MS })
      await watch.audit(holder, 'wallet offer')
      await watch.screenshot(holder, 'wallet-offer')
      await offers.getByRole('button', { name: /Accept/ }).click()
      await region(holder, 'Your credentials').getByText('done').waitFor({ timeout: SLOW_MS })
    })
    // The organization's list follows without a reload.
    await region(admin, 'Issuance records').getByText('done').first().waitFor({ timeout: SLOW_MS })
  })

  step('requests a presentation-exchange proof, shows the holder what it discloses, and verifies it', async () => {
    await open(admin, `/orgs/${orgId}/verification`, 'Verification')
    const builder = region(admin, 'Request a proof')
    await builder.getByLabel('Credentials under the schema').waitFor()
    await builder.getByLabel('Connection').locator('option').first().waitFor({ state: 'attached', timeout: 30_000 })
    await watch.audit(admin, 'verification builder')
    await watch.screenshot(admin, 'verification')
    await builder.getByRole('button', { name: 'Send the request' }).click()
    await builder.getByText('Proof request sent to the connection.').waitFor()
    await region(admin, 'Proof requests').getByRole('link', { name: 'Open' }).first().click()
    await admin.getByRole('heading', { level: 1, name: 'Proof request' }).waitFor()

    await timed('holderShares', async () => {
      await open(holder, '/wallet/proofs', 'Proof requests')
      const waiting = region(holder, 'Waiting for your answer')
      await waiting.getByRole('heading', { name: 'The verifier asks for' }).waitFor({ timeout: SLOW_MS })
      await expectText(waiting, 'shared whole')
      await expectText(waiting.locator('.disclosed'), 'name')
      await expectText(waiting.locator('.disclosed'), 'level')
      await watch.audit(holder, 'wallet proof request')
      await watch.screenshot(holder, 'wallet-proof-request')
      await waiting.getByRole('button', { name: 'Share' }).click()
      await waiting.getByText('Shared').waitFor()
    })
    await verifyOnProofPage()
    await expectText(region(admin, 'Result'), 'Holly Holder')
    await watch.audit(admin, 'proof result')
    await watch.screenshot(admin, 'proof-result')
  })

  async function verifyOnProofPage(): Promise<void> {
    await timed('verify', async () => {
      const verify = admin.getByRole('button', { name: 'Verify the presentation' })
      const result = region(admin, 'Result')
      await verify.or(result).first().waitFor({ timeout: SLOW_MS })
      if (await verify.isVisible()) await verify.click()
      await result.getByText('verified', { exact: true }).waitFor({ timeout: SLOW_MS })
    })
  }

  step('shows the webhook delivery log, signed deliveries included, and pings', async () => {
    await receiver.waitFor(() => receiver.accepted('/console').length > 0, SLOW_MS, 'a delivery to the console webhook')
    expect(receiver.badSignatures()).toEqual([])
    await open(admin, `/orgs/${orgId}/webhooks`, 'Webhooks')
    const log = region(admin, 'Delivery log')
    await log.getByRole('cell', { name: 'delivered' }).first().waitFor({ timeout: 60_000 })
    await admin.getByRole('button', { name: 'Send a ping' }).click()
    await admin.getByText(/Ping queued/).waitFor()
    await log.getByRole('cell', { name: /ping/ }).first().waitFor({ timeout: 60_000 })
    await watch.audit(admin, 'webhook delivery log')
    await watch.screenshot(admin, 'webhooks')
  })

  step('runs INDY: schema, credential definition, issuance, and a proof with a predicate', async () => {
    await timed('indyAgentReady', async () => {
      await open(admin, `/orgs/${indyOrgId}/agent`, 'Agent and DIDs')
      await region(admin, 'Status').getByText('DID_CREATED').waitFor({ timeout: SLOW_MS })
    })
    await open(admin, `/orgs/${indyOrgId}/schemas/new`, 'New schema')
    await admin.getByLabel(/^Type/).selectOption('INDY')
    await region(admin, 'Schema').getByLabel(/^Name/).fill('Membership')
    await admin.getByRole('group', { name: 'Attribute 1' }).getByLabel(/^Name/).fill('member')
    await admin.getByRole('button', { name: 'Add an attribute' }).click()
    const age = admin.getByRole('group', { name: 'Attribute 2' })
    await age.getByLabel(/^Name/).fill('age')
    await age.getByLabel('Data type').selectOption('number')
    await admin.getByRole('button', { name: 'Publish the schema' }).click()
    await admin.getByRole('heading', { level: 1, name: 'Membership 1.0' }).waitFor({ timeout: 60_000 })
    await timed('credDef', async () => {
      await region(admin, 'Create a credential definition').getByRole('button', { name: 'Create' }).click()
      await region(admin, 'Credential definitions of this schema')
        .getByText('created', { exact: true })
        .waitFor({ timeout: SLOW_MS })
    })
    await watch.audit(admin, 'INDY schema with its credential definition')

    const link = await createInvitation(indyOrgId)
    await receiveInvitation(link, 'Indy Verifier')
    await waitForOrgConnection(indyOrgId)

    const callsBeforeIssuance = watch.calls.length
    await open(admin, `/orgs/${indyOrgId}/issuance`, 'Issuance')
    const form = region(admin, 'Issue a credential')
    await form.getByLabel('Credential').selectOption({ index: 0 })
    await form.getByLabel('member').fill('Holly Holder')
    // The organization's own schema gives the form (with its types): by record id, no ledger read through the agent.
    const schemaReads = watch.calls
      .slice(callsBeforeIssuance)
      .filter((call) => call.method === 'GET' && call.path.startsWith(`/v1/orgs/${indyOrgId}/schemas/`))
      .map((call) => call.path.slice(`/v1/orgs/${indyOrgId}/schemas/`.length))
    expect(schemaReads.length).toBeGreaterThan(0)
    for (const schemaId of schemaReads) expect(schemaId).toMatch(/^[0-9a-f-]{36}$/)
    await form.getByLabel('age').fill('34')
    await form.getByLabel('Connection').locator('option').first().waitFor({ state: 'attached', timeout: 30_000 })
    await form.getByRole('button', { name: 'Offer the credential' }).click()
    await form.getByText('Offer sent to the connection.').waitFor()
    await timed('indyHolderAccepts', async () => {
      await open(holder, '/wallet/credentials', 'Credentials')
      const offers = region(holder, 'Offers')
      await offers.getByText('34').waitFor({ timeout: SLOW_MS })
      await offers.getByRole('button', { name: /Accept/ }).click()
      await region(holder, 'Your credentials').getByText('done').nth(1).waitFor({ timeout: SLOW_MS })
    })

    await open(admin, `/orgs/${indyOrgId}/verification`, 'Verification')
    const builder = region(admin, 'Request a proof')
    await builder.getByLabel('Format').selectOption('INDY')
    await builder.getByLabel('Attribute 1').fill('member')
    await builder.getByRole('button', { name: 'Add an attribute' }).click()
    await builder.getByLabel('Attribute 2').fill('age')
    await builder.getByLabel('Predicate').nth(1).selectOption('>=')
    await builder.getByLabel('Than').fill('18')
    await builder.getByLabel('Connection').locator('option').first().waitFor({ state: 'attached', timeout: 30_000 })
    await watch.audit(admin, 'INDY request builder')
    await builder.getByRole('button', { name: 'Send the request' }).click()
    await builder.getByText('Proof request sent to the connection.').waitFor()
    await region(admin, 'Proof requests').getByRole('link', { name: 'Open' }).first().click()
    await admin.getByRole('heading', { level: 1, name: 'Proof request' }).waitFor()

    await open(holder, '/wallet/proofs', 'Proof requests')
    const waiting = region(holder, 'Waiting for your answer')
    await waiting.getByRole('heading', { name: 'Proven without showing the value' }).waitFor({ timeout: SLOW_MS })
    await expectText(waiting, 'age >= 18')
    await waiting.getByRole('listitem').filter({ hasText: 'age >= 18' }).getByRole('button', { name: 'Share' }).click()
    await verifyOnProofPage()
    const result = region(admin, 'Result')
    await expectText(result, 'Holly Holder')
    await expectText(result, 'age >= 18')
    await expectText(result, 'Proven')
  })

  step('runs a bulk issuance with one bad row: the row is named, the good one is sent', async () => {
    await open(admin, `/orgs/${orgId}/bulk`, 'Bulk issuance')
    const pick = region(admin, '1. Choose the credential and get its template')
    await pick.getByLabel('Credential').selectOption({ label: 'JSON-LD: Employee badge 1.0' })
    const downloading = admin.waitForEvent('download')
    await pick.getByRole('button', { name: 'Download the CSV template' }).click()
    const download = await downloading
    const header = (await streamText(await download.createReadStream())).split(/\r?\n/)[0] ?? ''
    const columns = header.split(',')
    expect(columns).toEqual(expect.arrayContaining(['email', 'name', 'level']))
    const row = (values: Record<string, string>) => columns.map((column) => values[column] ?? '').join(',')
    const csv = [
      header,
      row({ email: 'good.row@example.test', name: 'Good Row', level: '2' }),
      row({ email: 'bad.row@example.test', name: 'Bad Row', level: 'not-a-number' }),
    ].join('\n')
    await admin
      .getByLabel('CSV file')
      .setInputFiles({ name: 'badges.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
    await admin.getByRole('button', { name: 'Upload and check' }).click()
    const check = region(admin, '3. Check the rows and execute')
    await check.getByText('2 rows, 1 valid, 1 with problems').waitFor({ timeout: 60_000 })
    await expectText(check.getByRole('table', { name: 'Rows with problems' }), 'level')
    await watch.audit(admin, 'bulk upload with a bad row')
    await watch.screenshot(admin, 'bulk')
    await check.getByRole('button', { name: 'Execute 1 valid row' }).click()
    const progress = region(admin, '4. Progress')
    await progress.getByText('completed', { exact: true }).waitFor({ timeout: SLOW_MS })
    await expectText(progress, 'Sent 1')
    await watch.audit(admin, 'bulk progress')
  })

  step('signs out for good: the session cookie no longer renews a token', async () => {
    await admin.getByRole('button', { name: 'Sign out' }).click()
    await admin.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
    // A reload would restore a live session from the cookie; after sign-out it lands on sign-in.
    await admin.goto(consoleUrl(`/orgs/${orgId}`))
    await admin.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
    const cookies = await adminContext.cookies()
    expect(cookies.filter((cookie) => cookie.name === 'idplane_refresh')).toEqual([])
    // The token never reached script-readable storage or a URL.
    expect(
      await admin.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })),
    ).not.toMatch(/eyJ/)
  })

  step(
    'made only calls the OpenAPI document describes, with nothing refused by the CSP, and no serious axe finding',
    async () => {
      const doc = (await request(platform.api.app).get('/api-json').expect(200)).body as OpenAPIObject
      expect(watch.calls.length).toBeGreaterThan(50)
      expect(undocumentedCalls(doc, watch.calls)).toEqual([])
      expect(watch.calls.some((call) => /access_token|refresh/.test(call.query.join(',')))).toBe(false)
      expect(watch.refused).toEqual([])
      expect(watch.pageErrors).toEqual([])
      expect(watch.audited.length).toBeGreaterThan(15)
      expect(watch.violations).toEqual([])
    },
  )
})

async function expectText(locator: Locator, text: string): Promise<void> {
  await locator.getByText(text).first().waitFor({ timeout: 30_000 })
}

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks).toString('utf8')
}
