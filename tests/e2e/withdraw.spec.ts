import { signWithdrawLink } from '../../app/notices/receipt-link'
import { analyzeWcag } from '../support/axe'
import { enquiry, expect, postEnquiry, test } from '../support/contact'
import { expectStored, storedFrom } from '../support/enquiries'
import { gotoHydrated } from '../support/page'
import { SITE_ORIGIN, SITE_PORT, TEST_RECEIPT_LINK_SECRET } from '../support/servers'
import { stateDir } from '../support/site-server'

/**
 * The page a receipt's withdraw link opens, in a browser: axe-clean in each of its states, and
 * usable by keyboard alone. The link is signed here with the main test site's secret, as the
 * receipt signs it. The receipt itself, and the link withdrawing an enquiry without JavaScript
 * (a forged or an expired one doing nothing), are tests/worker/notices.test.ts's.
 */
test('the withdraw page is axe-clean and works by keyboard alone', async ({ page, request }) => {
  const values = enquiry('withdraw-keys')
  await postEnquiry(request, SITE_ORIGIN, values, 'withdraw')
  const row = await expectStored(stateDir(SITE_PORT), values.email, 'delivered')
  const link = await signWithdrawLink(TEST_RECEIPT_LINK_SECRET, row.id, new Date())
  const axe = async () => {
    const results = await analyzeWcag(page)
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  }
  await gotoHydrated(page, '/withdraw?sig=forged')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link does not work')
  await axe()
  await gotoHydrated(page, `/withdraw?${new URLSearchParams({ id: row.id, until: String(link.until), sig: link.sig })}`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Withdraw your enquiry?')
  await axe()
  const button = page.getByRole('button', { name: 'Withdraw and erase' })
  for (let i = 0; i < 40 && !(await button.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab')
  await expect(button).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your enquiry is withdrawn')
  await axe()
  expect(await storedFrom(stateDir(SITE_PORT), values.email)).toHaveLength(0)
})
