// @vitest-environment node
// What the Worker's log holds about an enquiry: never the visitor's words; field names only for refused input.
import * as v from 'valibot'
import { describe, expect, it, vi } from 'vitest'
import { deliverDueEnquiries } from '~/contact/attempts.server'
import { isLocalRequest } from '~/contact/contact.server'
import { enquiryInputSchema } from '~/contact/schema'
import { FakeEmailMessage } from '../support/fake-env'
import {
  enquiryInput,
  env,
  expectNoPersonalData,
  FROM,
  form,
  invalidInputAnswer,
  later,
  printed,
  request,
  SECRET_WORDS,
  setUpSubmitHarness,
  submit,
} from '../support/submit-harness'

vi.mock('cloudflare:email', () => ({ EmailMessage: FakeEmailMessage }))

setUpSubmitHarness()

describe('what the logs hold', () => {
  it('never the visitor’s name, e-mail or message, through a whole life of stores, retries and give-ups', async () => {
    const send = vi.fn(async () => ({}))
    const e = env({ CONTACT_RETRY_DELAYS: '0', CONTACT_EMAIL: { send }, CONTACT_EMAIL_FROM: FROM })
    const data = enquiryInput()
    form.answer = () => new Response('no', { status: 500 })
    await submit(data, e)
    await submit(data, e) // a repeat
    await deliverDueEnquiries(e, { now: later(1_000), EmailMessageClass: FakeEmailMessage }) // gives up
    await submit(enquiryInput({ email: data.email, website: 'bot' }), e) // honeypot
    form.d1.broken = true
    await submit(enquiryInput({ email: data.email }), e) // not stored
    form.d1.broken = false
    const noKey = env({ CONTACT_FORM_ACCESS_KEY: undefined })
    await submit(enquiryInput({ email: data.email }), noKey)
    await deliverDueEnquiries(noKey, { now: later(60_000) }) // config error
    const result = v.safeParse(enquiryInputSchema, { ...data, email: 'not-an-address', subject: '' })
    if (!result.success) invalidInputAnswer(result.issues, request())

    expect(send).toHaveBeenCalledTimes(1)
    const { lines, json } = printed()
    expect(json.map((line) => line.outcome ?? line.event)).toEqual(
      expect.arrayContaining(['stored', 'retry_scheduled', 'repeat', 'gave_up', 'ignored', 'not_stored', 'invalid']),
    )
    expect(lines.length).toBe(json.length)
    expectNoPersonalData(lines, data)
    for (const line of lines) expect(line).not.toContain('not-an-address')
  })

  it('a local server also prints the stored enquiry as a readable block, for the developer', async () => {
    const data = enquiryInput()
    await submit(data, env(), { request: request('127.0.0.1', 'http://localhost:8787/_serverFn/x') })
    const block = printed().lines.find((line) => line.includes('New enquiry stored'))
    expect(block).toContain(`Email:    ${data.email}`)
    expect(block).toContain(`Hello, ${SECRET_WORDS}.`)
  })

  it('answers a refused input with 400, naming the fields, and logs only their names', async () => {
    const result = v.safeParse(enquiryInputSchema, { name: '', email: 'not-an-address', message: SECRET_WORDS })
    expect(result.success).toBe(false)
    if (result.success) return
    const response = invalidInputAnswer(result.issues, request())
    expect(response.status).toBe(400)
    const body = (await response.json()) as { ok: boolean; error: string; fields: Record<string, string> }
    expect({ ...body, fields: Object.keys(body.fields) }).toMatchObject({
      ok: false,
      error: 'invalid_input',
      fields: ['name', 'email', 'subject'],
    })
    const { json, lines } = printed()
    expect(json[0]).toMatchObject({ outcome: 'invalid', fields: 'name,email,subject' })
    for (const line of lines) expect(line).not.toContain('not-an-address')
  })
})

it('knows a local server from a deployed one', () => {
  const local = ['http://localhost:8787/contact', 'http://127.0.0.1:8787/contact', 'https://aksharalabs.in/contact']
  expect(local.map((url) => isLocalRequest(new Request(url)))).toEqual([true, true, false])
})
