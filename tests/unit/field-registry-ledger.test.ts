// @vitest-environment node
// The phone number of field-registry.test.tsx's copy of the registry, everywhere on the server's side.
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { afterAll, expect, it, vi } from 'vitest'
import { PHONE, WITH_PHONE } from '../support/registry-copy'

const copy = await vi.hoisted(async () => (await import('../support/registry-copy')).registryWithPhone())
vi.mock('~/ledger/fields', () => import(/* @vite-ignore */ copy))
afterAll(() => rmSync(dirname(copy), { recursive: true, force: true }))
// Only workerd has it; no e-mail is sent here.
vi.mock('cloudflare:email', () => ({ EmailMessage: class {} }))

const { outcomeCookies, readFormOutcome } = await import('~/contact/form-post.server')
const { formServicePayload } = await import('~/contact/deliveries/form-service.server')
const { webhookPayload } = await import('~/contact/webhooks')
const { webhookPayloadSchema } = await import('~/contact/webhook-schema')
const { enquiriesCsv } = await import('~/desk/csv-export.server')
const { enquiryText } = await import('~/notices/enquiry-mail')
const { formatEnquiry, LINE_FIELDS, pickValues } = await import('~/ledger')
const { getEnquiry, listEnquiries, storeEnquiry } = await import('~/ledger/index.server')
const { sqliteD1 } = await import('../support/d1-sqlite')

const values = WITH_PHONE

it('a refused post without JavaScript carries its phone back in the cookie', () => {
  // A refused post's values ride back in the cookie, the phone among them.
  const cookies = outcomeCookies({ status: 'failure', values: pickValues(values) }, true)
  const jar = Object.fromEntries(cookies.map((cookie) => cookie.split(';')[0]?.split('=') as [string, string]))
  const back = readFormOutcome(jar)
  expect(back?.status === 'failure' && (back.values as Record<string, string>).phone).toBe(PHONE)
})

it('is stored in its column, found by the search, and goes out in every copy of the enquiry', async () => {
  const d1 = sqliteD1()
  d1.sqlite.exec("ALTER TABLE enquiries ADD COLUMN phone TEXT NOT NULL DEFAULT ''")
  const enquiry = { id: '20261202-phone', receivedAt: '2026-12-02T10:00:00.000Z', subjectLabel: 'DevOps', ...values }
  await storeEnquiry(d1.db, enquiry as never, 'phone-key-0123456789', { nextAttemptAt: enquiry.receivedAt })
  expect(d1.row('SELECT phone FROM enquiries WHERE id = ?1', enquiry.id)).toEqual({ phone: PHONE })
  const record = await getEnquiry(d1.db, enquiry.id)
  expect((record as unknown as Record<string, string>).phone).toBe(PHONE)
  const found = await listEnquiries(d1.db, { search: '98765' }, { limit: 10, offset: 0 })
  expect(found.records.map((row) => row.id)).toEqual([enquiry.id])
  d1.close()

  expect(formatEnquiry(enquiry as never)).toContain(`Phone:    ${PHONE}`)
  expect(enquiryText(enquiry as never)).toContain(`Phone:    ${PHONE}`)
  expect(formServicePayload(enquiry as never, 'key')).toMatchObject({ phone: PHONE })
  const payload = JSON.parse(
    webhookPayload(
      { id: 'msg_x', type: 'enquiry.received', enquiryId: enquiry.id, createdAt: enquiry.receivedAt } as never,
      enquiry as never,
      'https://aksharalabs.in',
    ),
  )
  expect(Object.keys(payload.data)).toEqual([
    'id',
    'receivedAt',
    'name',
    'email',
    'company',
    'phone',
    'subject',
    'subjectLabel',
    'message',
    'deskUrl',
  ])
  const schema = webhookPayloadSchema() as { $defs: { enquiry: { properties: Record<string, unknown> } } }
  expect(schema.$defs.enquiry.properties.phone).toEqual({
    description: 'Empty when none was given.',
    type: 'string',
    maxLength: 30,
  })
  const [head, row] = enquiriesCsv([record as never])
    .slice(1)
    .split('\r\n')
  expect(head).toContain('"Company","Phone","Subject"')
  // A value that could start a formula gets the export's leading quote, as any field's does.
  expect(row).toContain(`"Godavari Foods","'${PHONE}","DevOps & Cloud Automation"`)
  // The desk's enquiry page lists the one-line fields below From (name and address).
  expect(LINE_FIELDS).toEqual(['name', 'email', 'company', 'phone'])
})
