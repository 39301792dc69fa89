import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { SUCCESS_MESSAGE } from '../../app/contact/status'
import { documentedNames } from '../../scripts/local-vars.mjs'
import { startAccessKeys, TEST_OPERATOR } from '../support/access-keys'
import { type Checkout, checkout, type Running } from '../support/checkout'
import { type Enquiry, enquiry, expect, fillForm, form, receivedFrom, setScenario, test } from '../support/contact'
import { documentedCommands } from '../support/documented-commands'
import { expectStored, storedFrom } from '../support/enquiries'
import { gotoContactForm, gotoHydrated } from '../support/page'
import { FORM_SERVICE_ORIGIN, PORT_BASE } from '../support/servers'
import { waitUntilServing } from '../support/site-server'
import {
  routeTurnstileWidget,
  startSiteverify,
  TEST_TURNSTILE_SECRET,
  TEST_TURNSTILE_SITE_KEY,
} from '../support/turnstile'

/**
 * The local doors as a newcomer walks them, in checkouts of their own: the README's and
 * docs/desk.md's commands run once each, exactly as written, and every variable `.dev.vars.example`
 * documents shown to take effect under `npm start` or `npm run dev`. A fresh clone with no key:
 * tests/worker/deliveries.test.ts and tests/unit/enquiry-retries.test.ts.
 */
test.describe.configure({ mode: 'parallel', timeout: 300_000 })

const PORT = PORT_BASE + 20
const KEYS_PORT = PORT_BASE + 21
const DEV_PORT = PORT_BASE + 22
const HOOKS_PORT = PORT_BASE + 23
const origin = `http://localhost:${PORT}`

/** `npm start` (with the environment a person may set, as the README names it), once it serves. */
async function npmStart(repo: Checkout, env: Record<string, string>): Promise<Running> {
  const site = repo.spawn('npm start', { PORT: String(PORT), ...env })
  await site
    .waitFor(/Serving the production build on workerd at/, 240_000)
    .then(() => waitUntilServing(origin, 90_000))
    .catch(async (error) => {
      await site.stop()
      throw error
    })
  return site
}

/** Every documented name but ACCESS_ALLOWED_EMAILS (`npm run dev`'s), with the printed ACCESS_* and hook lines. */
function everyVariable(ctx: {
  access: Record<string, string>
  verifyUrl: string
  hooks: { endpoints: string; secrets: string }
}): Record<string, string> {
  return {
    CONTACT_FORM_ACCESS_KEY: 'local-doors-key-3f9a',
    CONTACT_DELIVERY: 'form-service',
    CONTACT_FORM_ENDPOINT: `${FORM_SERVICE_ORIGIN}/submit`,
    CONTACT_EMAIL_FROM: 'doors@aksharalabs.example',
    CONTACT_RETRY_DELAYS: '2,2',
    ...ctx.access,
    ACCESS_POLICY_ONLY_REASON: 'Access admits only the three owners by e-mail.',
    ENQUIRY_RETENTION_DAYS: '30',
    INBOX_REPLY_BY_HOURS: '30',
    TURNSTILE_SITE_KEY: TEST_TURNSTILE_SITE_KEY,
    TURNSTILE_SECRET_KEY: TEST_TURNSTILE_SECRET,
    TURNSTILE_VERIFY_URL: ctx.verifyUrl,
    DIGEST_HOUR_UTC: '0',
    ALERT_AFTER_FAILURES: '2',
    RECEIPT_FROM: 'receipts@aksharalabs.example',
    RECEIPT_LINK_SECRET: 'local-doors-receipt-secret-0123456789',
    RECEIPTS_PER_NETWORK_DAY: '4',
    RECEIPTS_PER_SITE_DAY: '40',
    EARLY_ACCESS_FROM: 'updates@aksharalabs.example',
    EARLY_ACCESS_LINK_SECRET: 'local-doors-early-access-secret-0123456789',
    // The receiver's own lines, and a Slack endpoint on the same receiver (docs/integrations.md).
    WEBHOOK_ENDPOINTS: `${ctx.hooks.endpoints} team=http://127.0.0.1:${HOOKS_PORT}/slack`,
    WEBHOOK_SECRETS: ctx.hooks.secrets,
    WEBHOOK_SLACK: 'team',
    WEBHOOK_SLACK_BODY: 'on',
  }
}

test('docs/desk.md and .dev.vars.example as written: admin-token, its lines and every variable in .dev.vars, npm start, the printed curl line opens the desk, each variable takes effect, the scheduled handler runs by itself, npm run enquiries lists and retries', async ({
  page,
}) => {
  const repo = checkout('doors')
  const statePath = join(repo.dir, '.wrangler/state')
  const keys = repo.spawn(`npm run admin-token -- --port ${KEYS_PORT}`, { PORT: String(PORT) })
  // docs/integrations.md as written: the receiver prints the two lines to put in .dev.vars.
  const receiver = repo.spawn(`npm run webhook-receiver -- --port ${HOOKS_PORT}`)
  const siteverify = await startSiteverify()
  let server: Running | undefined
  try {
    const [, token = ''] = await keys.waitFor(/Open the desk with this token[^\n]*\n\n(\S+)\n/, 60_000)
    const printed = keys.output()
    const lines = printed.match(/^ACCESS_[A-Z_]+=.*$/gm) ?? []
    expect(lines.map((line) => line.split('=')[0])).toEqual(['ACCESS_TEAM_DOMAIN', 'ACCESS_AUD', 'ACCESS_CERTS_URL'])
    const [, endpoints = ''] = await receiver.waitFor(/^WEBHOOK_ENDPOINTS=(\S+)$/m, 60_000)
    const [, secrets = ''] = await receiver.waitFor(/^WEBHOOK_SECRETS=(\S+)$/m, 60_000)
    expect(endpoints).toBe(`local=http://127.0.0.1:${HOOKS_PORT}/hooks`)
    // The three printed ACCESS_* lines in .dev.vars, with every other documented variable.
    const access = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    )
    const vars = everyVariable({ access, verifyUrl: siteverify.url, hooks: { endpoints, secrets } })
    writeDevVars(repo, vars)
    // CRON_INTERVAL: npm start's own (README). A fresh checkout has no build: npm start makes one.
    server = await npmStart(repo, { CRON_INTERVAL: '1' })
    // What npm start said it loaded: names, never values.
    expect(server.output()).toContain(`Variables from .dev.vars: ${Object.keys(vars).join(', ')}`)
    expect(server.output()).not.toContain('Not a variable of this site')
    expect(server.output()).not.toContain(token)

    // "send the token as a header": the curl line admin-token printed, with the token in it.
    const curl = printed.match(/^\s*(curl -H "Cf-Access-Jwt-Assertion: <token>" \S+\/admin)$/m)?.[1]
    expect(curl, 'admin-token prints the curl line for this site').toBe(
      `curl -H "Cf-Access-Jwt-Assertion: <token>" ${origin}/admin`,
    )
    const desk = repo.run((curl as string).replace('<token>', token))
    expect(desk).toContain('<h1')
    expect(desk).toContain('Enquiries')
    expect(repo.run(`curl -s -o /dev/null -w '%{http_code}' ${origin}/admin`)).toBe('403')

    // ACCESS_TEAM_DOMAIN, ACCESS_AUD, ACCESS_CERTS_URL: the token opens the desk in the browser too.
    const asOperator = { 'Cf-Access-Jwt-Assertion': token }
    await page.setExtraHTTPHeaders(asOperator)
    await page.goto(`${origin}/admin/setup`)
    const caps = 'one a day per address, at most 4 a day per network and 40 a day in all'
    // Each set-up line, beside the variables it reads (RECEIPTS_PER_* are the caps).
    for (const [id, text] of [
      ['setup-retention', '30 days, then deleted'], // ENQUIRY_RETENTION_DAYS
      ['setup-turnstile', /^on/], // TURNSTILE_SITE_KEY with TURNSTILE_SECRET_KEY
      ['setup-delivery', 'form-service'],
      ['setup-missing', 'nothing'],
      ['setup-fence', vars.ACCESS_POLICY_ONLY_REASON as string], // no allow-list
      ['setup-digest', 'daily from 00:00 UTC'], // DIGEST_HOUR_UTC
      ['setup-alerts', 'after 2 enquiries in a row'], // ALERT_AFTER_FAILURES
      ['setup-receipt', `on: from ${vars.RECEIPT_FROM}, ${caps}`], // RECEIPT_FROM, RECEIPT_LINK_SECRET
      ['setup-early-access', `on: confirmation from ${vars.EARLY_ACCESS_FROM}, ${caps}`], // EARLY_ACCESS_*
      // WEBHOOK_ENDPOINTS, WEBHOOK_SECRETS, WEBHOOK_SLACK, WEBHOOK_SLACK_BODY: listed by host.
      [
        'setup-webhooks',
        `local → 127.0.0.1:${HOOKS_PORT} (signed JSON); team → 127.0.0.1:${HOOKS_PORT} (Slack, message body on)`,
      ],
    ] as const)
      await expect(page.getByTestId(id), id).toContainText(text)
    // INBOX_REPLY_BY_HOURS: the inbox's reply-by target; nothing missing, so no set-up line.
    await page.goto(`${origin}/admin`)
    await expect(page.getByTestId('setup-gaps')).toHaveCount(0)
    await expect(page.getByTestId('triage-reply-by')).toContainText('Reply within 30 weekday hours')
    await page.setExtraHTTPHeaders({})

    // Turnstile on: docs/operations/turnstile.md's curl check (step 4) is held; with the widget's
    // token, TURNSTILE_VERIFY_URL and CONTACT_FORM_* are used (CONTACT_DELIVERY=form-service).
    const heldCheck = documentedCommands(repo.dir).find((c) => c.command.startsWith('curl -X POST '))?.command
    expect(heldCheck, 'docs/operations/turnstile.md has its curl check').toContain("-H 'Origin: https://<domain>'")
    repo.run((heldCheck as string).replaceAll('https://<domain>', origin))
    const held = await expectStored(statePath, 'you@example.com', 'held')
    expect(held.heldReason).toBe('turnstile_missing')
    expect(held.message).toBe('held check')

    const delivered = enquiry('doors-delivered')
    await sendForm(page, delivered, `pass-${crypto.randomUUID()}`)
    await expectStored(statePath, delivered.email, 'delivered', 1)
    expect(siteverify.calls().some((call) => call.secret === vars.TURNSTILE_SECRET_KEY)).toBe(true)
    const [forwarded] = await receivedFrom(delivered.email)
    expect((forwarded?.json as Record<string, unknown>)?.access_key).toBe(vars.CONTACT_FORM_ACCESS_KEY)
    // Beside it, the receiver verified the signed event, and the Slack message carries the body.
    const [stored] = await storedFrom(statePath, delivered.email)
    await receiver.waitFor(
      new RegExp(`^enquiry\\.received msg_[0-9a-f]{32} enquiry ${stored?.id} \\(signature verified\\)$`, 'm'),
      20_000,
    )
    // The form's message (enquiry() writes it), there because WEBHOOK_SLACK_BODY is on.
    await receiver.waitFor(/^slack message: .*We need CI\/CD for 40 services/m, 20_000)

    // CONTACT_RETRY_DELAYS=2,2 and the ticker (CRON_INTERVAL): down, then back, delivered by itself.
    const back = enquiry('doors-back')
    await setScenario(back.email, { kind: 'status', status: 503 })
    await sendForm(page, back, `pass-${crypto.randomUUID()}`)
    await expect.poll(async () => (await storedFrom(statePath, back.email))[0]?.attempts, { timeout: 20_000 }).toBe(1)
    await setScenario(back.email, { kind: 'success' })
    await expectStored(statePath, back.email, 'delivered', 2, 20_000)

    // Down for good: two delays are three attempts, then failed.
    const lost = enquiry('doors-lost')
    await setScenario(lost.email, { kind: 'status', status: 503 })
    await sendForm(page, lost, `pass-${crypto.randomUUID()}`)
    await expectStored(statePath, lost.email, 'failed', 3, 30_000)
    // The one give-up notice, from CONTACT_EMAIL_FROM; a receipt from RECEIPT_FROM.
    const output = server.output
    const bodies = () => emailFiles(output()).map((raw) => ({ raw, text: bodyText(raw) }))
    const notices = () => bodies().filter((mail) => mail.text.includes('could not be delivered after 3 attempts'))
    await expect.poll(() => notices().length, { timeout: 15_000 }).toBe(1)
    expect(notices()[0]?.raw).toMatch(/^From: .*doors@aksharalabs\.example/m)
    const receipt = bodies().find((mail) => mail.raw.includes(`To: ${delivered.email}`))
    expect(receipt?.raw).toMatch(/^From: .*receipts@aksharalabs\.example/m)
    expect(receipt?.text).toContain('/withdraw?id=')

    // docs/notices.md, "Early access": sign up (with the widget's token), read the e-mail, confirm.
    const subscriber = `doors-early-${crypto.randomUUID().slice(0, 8)}@example.com`
    await routeTurnstileWidget(page, `pass-${crypto.randomUUID()}`)
    await gotoHydrated(page, `${origin}/products`)
    await page.locator('#early-access summary').click()
    await page.getByLabel('Email address').fill(subscriber)
    // The form's code has arrived and its widget has a token: the post is the script's, with it.
    await expect(page.getByTestId('early-access-turnstile')).toHaveAttribute(
      'data-widget',
      `${TEST_TURNSTILE_SITE_KEY} contact`,
    )
    await page.getByRole('button', { name: 'Keep me posted' }).click()
    await expect(page.locator('#early-access-status')).toContainText('Check your inbox')
    const confirmation = () => bodies().find((mail) => mail.raw.includes(`To: ${subscriber}`))
    await expect
      .poll(() => confirmation()?.raw ?? '', { timeout: 15_000 })
      .toMatch(/^From: .*updates@aksharalabs\.example/m)
      .catch((error) => {
        // The signup's log lines say what happened instead (docs/notices.md, "Early access").
        const lines = output().match(/^.*"early_access".*$/gm) ?? []
        throw new Error(`no confirmation to ${subscriber}:\n${lines.join('\n')}`, { cause: error })
      })
    const link = new URL(confirmation()?.text.match(/https?:\/\/\S+\/early-access\/confirm\?\S+/)?.[0] ?? '')
    await page.goto(`${origin}${link.pathname}${link.search}`)
    await page.getByRole('button', { name: 'Confirm' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are on the list')

    // docs/desk.md's `npm run enquiries` and `… -- retry <id>`; the README's scheduled handler `curl`.
    const listed = repo.run('npm run enquiries')
    const [, id = ''] =
      listed.match(
        new RegExp(`^(\\d{8}-\\S+)\\s.*failed\\s+3 att\\.\\s+devops\\s+${lost.name} <${lost.email}>`, 'm'),
      ) ?? []
    expect(id, listed).not.toBe('')
    expect(listed).toMatch(new RegExp(`delivered\\s+1 att\\.\\s+devops\\s+${delivered.name} <${delivered.email}>`))
    expect(repo.run(`npm run enquiries -- retry ${id}`)).toContain(`Enquiry ${id} is due now (was failed, 3 attempts)`)
    expect(repo.run(`curl http://localhost:${PORT}/cdn-cgi/handler/scheduled`)).toBe('ok')
    await expect.poll(async () => (await storedFrom(statePath, lost.email))[0]?.attempts, { timeout: 20_000 }).toBe(4)
  } finally {
    await server?.stop()
    await keys.stop()
    await receiver.stop()
    await siteverify.close()
    repo.remove()
  }
})

/** The names the test above sets in .dev.vars (it checks that its own are these). */
const STARTED_NAMES = Object.keys(
  everyVariable({
    access: { ACCESS_TEAM_DOMAIN: '', ACCESS_AUD: '', ACCESS_CERTS_URL: '' },
    verifyUrl: '',
    hooks: { endpoints: '', secrets: '' },
  }),
).sort()

const writeDevVars = (repo: Checkout, vars: Record<string, string>) =>
  repo.write(
    '.dev.vars',
    Object.entries(vars)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(''),
  )

/** A message's text (its body is base64, as the site writes every message). */
function bodyText(raw: string): string {
  return Buffer.from((raw.split('\r\n\r\n')[1] ?? '').replace(/\s+/g, ''), 'base64').toString('utf8')
}

/** The messages wrangler's local `send_email` wrote, from the paths it printed. */
function emailFiles(output: string): string[] {
  return [...output.matchAll(/Email: (\S+\.eml)/g)].map((match) => readFileSync(match[1] as string, 'utf8'))
}

/** Fills and sends the contact form in the browser; with `token`, the stand-in widget hands it over. */
async function sendForm(page: Page, values: Enquiry, token?: string) {
  if (token) await routeTurnstileWidget(page, token)
  await gotoContactForm(page, `${origin}/contact`)
  await fillForm(page, values)
  if (token)
    await expect(page.getByTestId('turnstile')).toHaveAttribute('data-widget', `${TEST_TURNSTILE_SITE_KEY} contact`)
  await form(page).submit.click()
  await expect(form(page).status).toContainText(SUCCESS_MESSAGE)
}

test('npm run dev reads the same .dev.vars (ACCESS_ALLOWED_EMAILS among them) and runs the scheduled handler by itself; without the early-access sender, the products button opens the contact form', async ({
  request,
  page,
}) => {
  const repo = checkout('doors-dev')
  const statePath = join(repo.dir, '.wrangler/state')
  const keys = await startAccessKeys(0)
  const vars: Record<string, string> = {
    CONTACT_FORM_ACCESS_KEY: 'local-dev-key-81c2',
    CONTACT_FORM_ENDPOINT: `${FORM_SERVICE_ORIGIN}/submit`,
    CONTACT_RETRY_DELAYS: '2',
    ...keys.vars(),
    ACCESS_ALLOWED_EMAILS: TEST_OPERATOR,
  }
  writeDevVars(repo, vars)
  const devOrigin = `http://localhost:${DEV_PORT}`
  const dev = repo.spawn(`npm run dev -- --port ${DEV_PORT} --strictPort`, { CRON_INTERVAL: '1' })
  try {
    await dev.waitFor(/ready in \d+ ms/, 240_000)
    await waitUntilServing(devOrigin, 120_000).catch((error) => {
      throw new Error(`npm run dev did not serve /api/health:\n${dev.output().slice(-4000)}`, { cause: error })
    })
    const values = enquiry('doors-dev')
    await setScenario(values.email, { kind: 'status', status: 503 })
    const post = await request.post(`${devOrigin}/api/contact`, {
      form: { ...values },
      headers: { Origin: devOrigin, Accept: 'text/html', 'Sec-Fetch-Mode': 'navigate' },
      maxRedirects: 0,
    })
    expect(post.status(), await post.text()).toBe(303)
    await expect.poll(async () => (await storedFrom(statePath, values.email))[0]?.attempts, { timeout: 20_000 }).toBe(1)
    await setScenario(values.email, { kind: 'success' })
    await expectStored(statePath, values.email, 'delivered', 2, 20_000)
    const [forwarded] = (await receivedFrom(values.email)).slice(-1)
    expect((forwarded?.json as Record<string, unknown>)?.access_key).toBe('local-dev-key-81c2')

    // ACCESS_ALLOWED_EMAILS: the operator's token opens the desk, anyone else's does not.
    const operator = await request.get(`${devOrigin}/admin/setup`, {
      headers: { 'Cf-Access-Jwt-Assertion': await keys.sign({ email: TEST_OPERATOR }) },
    })
    const operatorPage = await operator.text()
    expect(operator.status(), `${operatorPage.slice(0, 2000)}\n${dev.output().slice(-4000)}`).toBe(200)
    expect(operatorPage).toContain('the 1 address in ACCESS_ALLOWED_EMAILS')
    const stranger = await request.get(`${devOrigin}/admin`, {
      headers: { 'Cf-Access-Jwt-Assertion': await keys.sign({ email: 'someone-else@aksharalabs.in' }) },
    })
    expect(stranger.status()).toBe(403)

    // Without EARLY_ACCESS_FROM (a fresh clone), the products button opens the contact form.
    await page.goto(`${devOrigin}/products`)
    await page.getByRole('link', { name: 'Get Early Access Updates' }).click()
    await expect(page).toHaveURL(`${devOrigin}/contact?subject=voice-ai`)

    // Each test shows its own variables take effect; together they are every documented one.
    const documented = documentedNames(readFileSync('.dev.vars.example', 'utf8'))
    expect(
      [...new Set([...STARTED_NAMES, ...Object.keys(vars)])].sort(),
      'every documented variable is shown to take effect',
    ).toEqual([...documented].sort())
  } finally {
    await dev.stop()
    await keys.close()
    repo.remove()
  }
})
