// The rate-limit bindings of wrangler.toml as Miniflare counts them: 5 a client, 10 a network a minute.
import { expect, test } from 'vitest'
import { FAILURE_MESSAGE } from '../../app/contact/status'
import { enquiry, uniqueNetwork } from '../support/values'
import { siteUnderTest, standInsForFile } from './support/fixtures'
import { postContact, submitContact } from './support/http'
import { clientAddress, withinOneWindow } from './support/site'

const stand = standInsForFile()
const worker = siteUnderTest(() => ({ vars: stand.production() }))

const delivered = (email: string) => expect.poll(() => stand.forms.from(email).length).toBe(1)

test('the 6th message within a minute from one client gets 429 with Retry-After and the failure message, and is not stored or forwarded', async () => {
  await withinOneWindow()
  const ip = clientAddress()
  const sent = Array.from({ length: 5 }, (_, i) => enquiry(`limit-${i}`))
  for (const values of sent) expect((await postContact(worker, values, { ip })).status).toBe(200)
  // The sixth as the form's code sends it: the same client's limit counts both doors.
  const sixth = enquiry('limit-6th')
  const answer = await submitContact(worker, sixth, { ip })
  expect(answer.status).toBe(429)
  expect(answer.headers.get('retry-after')).toBe('60')
  for (const values of sent) await delivered(values.email)
  expect(stand.forms.from(sixth.email)).toHaveLength(0)
  expect(await worker.sql('SELECT id FROM enquiries WHERE email = ?', sixth.email)).toEqual([])

  // Another client is not limited by someone else's messages.
  expect((await postContact(worker, enquiry('not-limited'))).status).toBe(200)
  const seventh = await postContact(worker, enquiry('limit-7th'), { ip })
  expect(seventh.status).toBe(429)
  expect(await seventh.json()).toEqual({ ok: false, error: 'rate_limited', message: FAILURE_MESSAGE })
})

test('a burst from one /48, each post from another /64 of it, is limited at 10 a minute; nothing refused is forwarded', async () => {
  await withinOneWindow()
  const network = uniqueNetwork()
  const sent: { email: string; status: number; retryAfter: string | null }[] = []
  for (let i = 1; i <= 14; i++) {
    const values = enquiry(`slash48-${i}`)
    const answer = await postContact(worker, values, { ip: `${network}:${i.toString(16)}::1` })
    sent.push({ email: values.email, status: answer.status, retryAfter: answer.headers.get('retry-after') })
  }
  expect(sent.map((post) => post.status)).toEqual([...Array(10).fill(200), ...Array(4).fill(429)])
  expect(sent.slice(10).every((post) => post.retryAfter === '60')).toBe(true)
  for (const { email } of sent.slice(0, 10)) await delivered(email)
  for (const { email } of sent.slice(10)) expect(stand.forms.from(email)).toHaveLength(0)
  // The /48 next door is not limited by it.
  const [a, b] = network.split(':').slice(1)
  const neighbour = `3fff:${a}:${(Number.parseInt(b as string, 16) ^ 1).toString(16)}:1::1`
  expect((await postContact(worker, enquiry('slash48-neighbour'), { ip: neighbour })).status).toBe(200)
})

test('a real visitor sending the form in the middle of a flood from other addresses is stored and delivered, once', async () => {
  await withinOneWindow(15)
  // Three /48s, ten /64s each, three posts a /64: 90 posts, 10 at a time.
  const networks = Array.from({ length: 3 }, uniqueNetwork)
  const posts = networks.flatMap((network) =>
    Array.from({ length: 30 }, (_, i) => ({
      ip: `${network}:${(i % 10).toString(16)}::1`,
      values: enquiry(`flood-${i}`),
    })),
  )
  const statuses: number[] = []
  let next = 0
  const flood = Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < posts.length) {
        const post = posts[next++] as (typeof posts)[number]
        statuses.push((await postContact(worker, post.values, { ip: post.ip })).status)
      }
    }),
  )
  // The visitor, from an address of their own, once the flood is under way.
  await expect.poll(() => statuses.length).toBeGreaterThan(15)
  const visitor = enquiry('in-the-flood')
  const answer = await submitContact(worker, visitor)
  expect(answer.status).toBe(200)
  await flood

  expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([])
  // At most 10 a minute from each /48 got through.
  expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(30)
  expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(60)
  await expect
    .poll(() => worker.sql('SELECT status, attempts FROM enquiries WHERE email = ?', visitor.email))
    .toEqual([{ status: 'delivered', attempts: 1 }])
  expect(stand.forms.from(visitor.email)).toHaveLength(1)
})
