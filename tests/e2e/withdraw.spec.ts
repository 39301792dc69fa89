import { signWithdrawLink } from '../../app/notices/receipt-link'
import { analyzeWcag } from '../support/axe'
import { enquiry, expect, postEnquiry, test } from '../support/contact'
import { expectStored, storedFrom } from '../support/enquiries'
import { gotoHydrated } from '../support/page'
import { SITE_ORIGIN, SITE_PORT, TEST_RECEIPT_LINK_SECRET } from '../support/servers'
import { stateDir } from '../support/site-server'

// The withdraw page a receipt links to, axe-clean in each state and usable by keyboard alone (the
// link's effects: tests/worker/notices.test.ts).
test('the withdraw page is axe-clean and works by keyboard alone', async ({ page, request }) => {
  const values = enquiry('withdraw-keys')
  await postEnquiry(request, SITE_ORIGIN, values, 'withdraw')
  const row = await expectStored(stateDir(SITE_PORT), values.email, 'delivered')
  const link = await signWithdrawLink(TEST_RECEIPT_LINK_SECRET, row.id, new Date())
  await gotoHydrated(page, '/withdraw?sig=forged')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link does not work')
  expect(await analyzeWcag(page)).toEqual([])
  await gotoHydrated(page, `/withdraw?${new URLSearchParams({ id: row.id, until: String(link.until), sig: link.sig })}`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Withdraw your enquiry?')
  expect(await analyzeWcag(page)).toEqual([])
  const button = page.getByRole('button', { name: 'Withdraw and erase' })
  for (let i = 0; i < 40 && !(await button.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab')
  await expect(button).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your enquiry is withdrawn')
  expect(await analyzeWcag(page)).toEqual([])
  expect(await storedFrom(stateDir(SITE_PORT), values.email)).toHaveLength(0)
})
