// A copy of the fields registry gains a phone number, as a newcomer would write it, and the field
// reaches the form: its input and its checks. The server's side: field-registry-ledger.test.ts.

import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { render, screen } from '@testing-library/react'
import { afterAll, expect, it, vi } from 'vitest'
import { PHONE, WITH_PHONE } from '../support/registry-copy'

const copy = await vi.hoisted(async () => (await import('../support/registry-copy')).registryWithPhone())
vi.mock('~/ledger/fields', () => import(/* @vite-ignore */ copy))
afterAll(() => rmSync(dirname(copy), { recursive: true, force: true }))
vi.mock('~/contact/contact.functions', () => ({ submitContact: vi.fn(), getTurnstileSiteKey: vi.fn() }))
vi.mock('~/server/runtime.server', () => ({ workerRuntime: vi.fn(), workerEnv: vi.fn() }))

const { ContactForm } = await import('~/components/contact/ContactForm')
const { validateContact } = await import('~/contact/schema')

const values = WITH_PHONE

it('the form shows it beside the company, and checks it', () => {
  render(<ContactForm />)
  const input = screen.getByLabelText('Phone Number') as HTMLInputElement
  expect(input.type).toBe('tel')
  expect(input.autocomplete).toBe('tel')
  expect(input.required).toBe(false)
  expect(input.closest('.grid')?.querySelector('#contact-company')).toBeTruthy()

  const valid = validateContact(values)
  expect(valid.success && (valid.output as Record<string, string>).phone).toBe(PHONE)
  const long = validateContact({ ...values, phone: '1'.repeat(31) })
  expect(!long.success && (long.errors as Record<string, string>).phone).toBe(
    'Please use at most 30 characters for your phone number.',
  )
  const broken = validateContact({ ...values, phone: '+91\n555' })
  expect(!broken.success && (broken.errors as Record<string, string>).phone).toBe(
    'Please write your phone number on one line.',
  )
})
