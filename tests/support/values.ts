import { randomBytes } from 'node:crypto'
import type { ContactValues } from '../../app/ledger/fields'
import { EMPTY_VALUES } from '../../app/ledger/fields'
import type { Enquiry as LedgerEnquiry } from '../../app/ledger/record'

// What a visitor writes; each test sends from addresses of its own.

/** A client address of its own for each test (from the IPv6 documentation prefix). */
export function uniqueClientAddress(): string {
  const hex = randomBytes(8).toString('hex')
  return `2001:db8:${hex.slice(0, 4)}:${hex.slice(4, 8)}:${hex.slice(8, 12)}:${hex.slice(12, 16)}::1`
}

/** A /48 no other test uses (3fff::/20 is documentation space, like 2001:db8::/32). */
export function uniqueNetwork(): string {
  return `3fff:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`
}

/** An address of its own for each enquiry: the stand-in form service answers per address. */
export function uniqueEmail(label: string): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.com`
}

/** Each field of the form, as the ledger's registry declares them (app/ledger/fields.ts). */
export type Enquiry = ContactValues

export function enquiry(label: string, overrides: Partial<Enquiry> = {}): Enquiry {
  return {
    ...EMPTY_VALUES,
    name: 'Lakshmi Prasanna',
    email: uniqueEmail(label),
    company: 'Godavari Agro Exports',
    subject: 'devops',
    message: `We need CI/CD for 40 services.\nSecond line: ${label}.`,
    ...overrides,
  }
}

/** Addresses, and whether each is one: the browser (contact.spec.ts) agrees with the server (tests/unit/contact-schema). */
export const EMAIL_ADDRESSES: [address: string, valid: boolean][] = [
  ["o'brien@example.com", true],
  ['first.last+tag@example.co.in', true],
  ['user@localhost', true],
  ['a.b-c_d@sub.example.com', true],
  ['plainaddress', false],
  ['@example.com', false],
  ['user@', false],
  ['user@-example.com', false],
  ['user@example..com', false],
  ['user name@example.com', false],
]

let stored = 0

/** An enquiry as the ledger stores it, for a test that writes one straight to D1: an id of its own, received now. */
export function ledgerEnquiry(label: string, overrides: Partial<LedgerEnquiry> = {}): LedgerEnquiry {
  stored += 1
  return {
    ...EMPTY_VALUES,
    id: `${label}-${stored}`,
    receivedAt: new Date().toISOString(),
    name: `Person ${stored}`,
    email: `${label}-${stored}@example.com`,
    subject: 'general',
    subjectLabel: 'General',
    message: 'Hello',
    ...overrides,
  }
}
