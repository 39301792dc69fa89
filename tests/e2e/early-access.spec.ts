import { readFileSync } from 'node:fs'
import { analyzeWcag } from '../support/axe'
import { expect, test } from '../support/contact'
import { gotoHydrated, requestedUrls } from '../support/page'
import { PORT_BASE } from '../support/servers'
import { type SiteServer, startSiteServer, stateDir } from '../support/site-server'

// The products panel's early-access form with JavaScript at 375 and 1280 px, axe-clean, and the confirm
// and leave pages its e-mail leads to; without JavaScript: tests/worker/early-access.test.ts.
test.describe.configure({ mode: 'default', timeout: 180_000 })

const PORT = PORT_BASE + 9
let server: SiteServer

test.beforeAll(async () => {
  test.setTimeout(180_000)
  server = await startSiteServer(
    'early-access',
    PORT,
    {
      EARLY_ACCESS_FROM: 'updates@aksharalabs.in',
      EARLY_ACCESS_LINK_SECRET: 'e2e-early-access-secret-0123456789abcdef',
    },
    { persistTo: stateDir(PORT) },
  )
})

test.afterAll(() => server?.stop())

/** The confirm link of the message wrangler's local `send_email` wrote to `email`, as a path on this server. */
function confirmPath(email: string): string {
  for (const [, path] of server.output().matchAll(/Email: (\S+\.eml)/g)) {
    const raw = readFileSync(path as string, 'utf8')
    if (!raw.includes(`To: ${email}`)) continue
    const text = Buffer.from((raw.split('\r\n\r\n')[1] ?? '').replace(/\s+/g, ''), 'base64').toString('utf8')
    const link = text.match(/https?:\/\/\S+\/early-access\/confirm\?\S+/)?.[0]
    if (link) return `${new URL(link).pathname}${new URL(link).search}`
  }
  return ''
}

const address = (label: string) => `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`

for (const width of [375, 1280]) {
  test(`with JavaScript at ${width} px: the form's code loads on first use and answers in place; the confirm and leave pages`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 })
    const formCode = requestedUrls(page, (request) => /EarlyAccessForm/.test(request.url()))
    await gotoHydrated(page, `${server.origin}/products`)
    expect(formCode).toEqual([])
    await page.locator('#early-access summary').click()
    const email = address(`js-${width}`)
    await page.getByLabel('Email address').fill(email)
    // Its code has arrived (a press before that posts without it, as the next test does).
    await expect(page.locator('#early-access form[data-ready]')).toHaveCount(1)
    await page.getByRole('button', { name: 'Keep me posted' }).click()
    await expect(page.locator('#early-access-status')).toContainText('Check your inbox')
    expect(formCode.length).toBeGreaterThan(0)
    expect(new URL(page.url()).search).toBe('')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
    expect(await analyzeWcag(page)).toEqual([])

    await expect.poll(() => confirmPath(email), { timeout: 15_000 }).not.toBe('')
    await gotoHydrated(page, `${server.origin}${confirmPath(email)}`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your address?')
    expect(await analyzeWcag(page)).toEqual([])
    await page.getByRole('button', { name: 'Confirm' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are on the list')
    expect(await analyzeWcag(page)).toEqual([])
    await page.getByRole('link', { name: 'Leave the list' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Leave the list?')
    expect(await analyzeWcag(page)).toEqual([])
    await page.getByRole('button', { name: 'Leave' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You have left the list')
  })
}
