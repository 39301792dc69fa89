// The desk's fixture: one Worker on a database folder of the file's own (the operator's command reads it),
// the stand-ins, and an operator's requests signed by the stand-in Access key server.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect } from 'vitest'
import type { EnquiryRecord } from '../../../app/ledger/record'
import { type Enquiry, enquiry } from '../../support/values'
import { siteUnderTest, standInsForFile } from './fixtures'
import { parseHtml } from './html'
import { postForm, sendEnquiry, TYPED } from './http'

export type Row = Pick<EnquiryRecord, 'id' | 'status' | 'attempts' | 'handledBy' | 'nextAttemptAt'>

/** Registers the file's Worker and stand-ins, and returns what its tests do as an operator. */
export function deskUnderTest() {
  const persistTo = mkdtempSync(join(tmpdir(), 'worker-desk-'))
  afterAll(() => rmSync(persistTo, { recursive: true, force: true }))

  const stand = standInsForFile()
  const worker = siteUnderTest(() => ({ vars: stand.production(), persistTo }))

  const token = () => stand.keys.sign({ expiresIn: 4 * 3600 })
  /** An operator's typed request; as a person of its own when `email` is given. */
  const asOperator = async (email?: string) => ({
    'Cf-Access-Jwt-Assertion': email
      ? await stand.keys.sign({ email, sub: crypto.randomUUID(), expiresIn: 4 * 3600 })
      : await token(),
    ...TYPED,
  })
  const page = async (path: string) => {
    const response = await worker.fetch(path, { headers: await asOperator() })
    return { response, document: parseHtml(await response.text()) }
  }

  const rowsOf = (email: string) =>
    worker.sql<Row>(
      `SELECT id, status, attempts, handled_by AS handledBy, next_attempt_at AS nextAttemptAt FROM enquiries WHERE email = ?`,
      email,
    )

  /** Sends an enquiry as the form does, and waits until its first attempt is over. */
  async function sent(values: Enquiry, status = 'delivered'): Promise<Row> {
    await sendEnquiry(worker, values, status)
    return (await rowsOf(values.email))[0] as Row
  }

  /** A pending enquiry whose first attempt failed (the form service answered 503). */
  async function failedOnce(label: string) {
    const values = enquiry(label, { name: `${label} ${crypto.randomUUID().slice(0, 8)}` })
    stand.forms.setScenario(values.email, { kind: 'status', status: 503 })
    const row = await sent(values, 'pending')
    expect(stand.forms.from(values.email)).toHaveLength(1)
    const [first] = await worker.sql(
      'SELECT attempt, outcome, cause FROM enquiry_attempts WHERE enquiry_id = ?',
      row.id,
    )
    expect(first).toEqual({ attempt: 1, outcome: 'failed', cause: 'upstream_status' })
    return { values, row }
  }

  /** An operator's press of an action button: the form post the page makes; the flash it leads to. */
  async function press(action: string, id: string, extra: Record<string, string> = {}): Promise<string | null> {
    const answer = await postForm(worker, '/admin/actions', { action, id, ...extra }, { headers: await asOperator() })
    expect(answer.status).toBe(303)
    return new URL(answer.headers.get('location') ?? '', worker.origin).searchParams.get('flash')
  }

  const deskLines = (action: string) => worker.logs().filter((line) => line.event === 'admin' && line.action === action)

  return { persistTo, stand, worker, token, asOperator, page, rowsOf, sent, failedOnce, press, deskLines }
}
