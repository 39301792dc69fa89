/**
 * The hourly cap on held enquiries counts per network (docs/contact.md, "Floods"), as the Worker
 * answers: twenty tokenless posts from one network no longer turn away every visitor without
 * JavaScript for the rest of the hour.
 */
import { expect, test } from 'vitest'
import { enquiry } from '../support/values'
import { siteUnderTest, standInsForFile } from './support/fixtures'
import { postContact } from './support/http'
import { withinOneWindow } from './support/site'

const stand = standInsForFile()
const worker = siteUnderTest(() => ({ vars: stand.turnstile() }))

test('20 tokenless posts from one network, then a no-JavaScript post from another network is stored', async () => {
  const tag = crypto.randomUUID().slice(0, 6)
  const network = `2001:db8:${(0x1000 + Math.floor(Math.random() * 0xe000)).toString(16)}`
  // The flood limit lets 10 a minute from one network: two windows of 10, each from /64s of its /48.
  for (const round of [0, 1]) {
    // The first round within one window; the second in the next.
    await withinOneWindow(round === 0 ? 15 : 60)
    for (let n = 0; n < 10; n++) {
      const answer = await postContact(
        worker,
        enquiry('held-flood', { email: `flood-${round}-${n}-${tag}@example.com` }),
        {
          ip: `${network}:${round * 10 + n + 1}::1`,
        },
      )
      expect(answer.status, await answer.clone().text()).toBe(200)
    }
  }
  expect(await worker.sql(`SELECT id FROM enquiries WHERE status = 'held' AND email LIKE 'flood-%'`)).toHaveLength(20)
  // That network is full for the hour; another network's visitor without JavaScript is not.
  const visitor = enquiry('held-other-network', { email: `visitor-${tag}@example.com` })
  const answer = await postContact(worker, visitor, { ip: '2001:db8:ffff:1::1' })
  expect(answer.status, await answer.clone().text()).toBe(200)
  expect(
    await worker.sql('SELECT status, held_reason AS reason FROM enquiries WHERE email = ?', visitor.email),
  ).toEqual([{ status: 'held', reason: 'turnstile_missing' }])
}, 180_000)
