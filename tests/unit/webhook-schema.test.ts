// @vitest-environment node
// docs/webhook-payload.schema.json, made by `npm run schema:webhooks` from the enquiry's fields.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { webhookPayloadSchema } from '~/contact/webhook-schema'
import { CONTACT_FIELDS } from '~/ledger'

const FILE = 'docs/webhook-payload.schema.json'

it('npm run schema:webhooks writes the committed file again, unchanged', () => {
  const committed = readFileSync(FILE, 'utf8')
  execFileSync('npm', ['run', 'schema:webhooks'], { stdio: 'pipe' })
  expect(readFileSync(FILE, 'utf8')).toBe(committed)
  expect(JSON.parse(committed)).toEqual(webhookPayloadSchema())
})

it('names every field of the registry, and the subject’s words beside it', () => {
  const enquiry = (webhookPayloadSchema().$defs as Record<string, { required: string[] }>).enquiry
  expect(enquiry?.required).toEqual([
    'id',
    'receivedAt',
    ...CONTACT_FIELDS.flatMap((field) => (field === 'subject' ? [field, 'subjectLabel'] : [field])),
    'deskUrl',
  ])
})
