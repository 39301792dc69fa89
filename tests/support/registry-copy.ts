import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * A copy of the enquiry's fields (app/ledger/fields.ts) with a phone number added before the
 * subject, as a newcomer would write the entry; its path, for `vi.mock('~/ledger/fields', …)`. It
 * is written inside the project (Vite transforms it there), in a folder git, the linter and tsc
 * leave alone.
 */
export function registryWithPhone(): string {
  const source = readFileSync(join(process.cwd(), 'app/ledger/fields.ts'), 'utf8')
  if (!source.includes('  subject: {')) throw new Error('the registry has no subject entry to add the phone before')
  const phone = `  phone: {
    label: 'Phone Number',
    heading: 'Phone',
    column: 'phone',
    searched: true,
    kind: 'tel',
    required: false,
    max: 30,
    autoComplete: 'tel',
    width: 'half',
    messages: {
      tooLong: 'Please use at most 30 characters for your phone number.',
      invalid: 'Please write your phone number on one line.',
    },
  },
  subject: {`
  const folder = join(process.cwd(), '.wrangler', 'tmp')
  mkdirSync(folder, { recursive: true })
  const file = join(mkdtempSync(join(folder, 'field-registry-')), 'fields.ts')
  writeFileSync(file, source.replace('  subject: {', phone))
  return file
}

export const PHONE = '+91 98765 43210'

/** An enquiry's values with the phone. */
export const WITH_PHONE = {
  name: 'Asha Rao',
  email: 'asha@example.com',
  company: 'Godavari Foods',
  phone: PHONE,
  subject: 'devops',
  message: 'Please call me.',
}
