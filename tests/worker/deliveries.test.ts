// A fresh clone's site (no key, no Access) stores and sends none; the "email" delivery through send_email.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { site as company } from '../../app/site'
import { enquiry } from '../support/values'
import { siteUnderTest, standInsForFile } from './support/fixtures'
import { serverFnAnswer, submitContact } from './support/http'
import { enquiriesCommand, enquiriesCommandWith } from './support/operator'

const stand = standInsForFile()

describe('a fresh clone: no key, no Access', () => {
  const persistTo = mkdtempSync(join(tmpdir(), 'worker-fresh-'))
  afterAll(() => rmSync(persistTo, { recursive: true, force: true }))
  // The form service's address is set (so a delivery could reach the stand-in), its key is not.
  const worker = siteUnderTest(() => ({ vars: { CONTACT_FORM_ENDPOINT: stand.forms.url }, persistTo }))

  test('the enquiry is stored and the visitor told it is sent; `npm run enquiries` lists and shows it; nothing is forwarded', async () => {
    const values = enquiry('fresh', { subject: 'voice-ai', message: 'Demo please.\nనమస్కారం' })
    const answer = await submitContact(worker, values)
    expect(answer.status).toBe(200)
    expect(await serverFnAnswer(answer)).toEqual({ ok: true })
    const [row] = await worker.sql<Record<string, unknown>>(
      'SELECT id, name, company, subject, message, status, attempts FROM enquiries WHERE email = ?',
      values.email,
    )
    expect(row).toMatchObject({
      name: values.name,
      company: values.company,
      subject: 'voice-ai',
      message: values.message,
      status: 'pending',
      attempts: 0,
    })
    const id = String(row?.id)
    expect(id).toMatch(/^\d{8}-[\w-]{16}$/)
    await worker.cron()
    expect(stand.forms.from(values.email)).toHaveLength(0)

    const list = await enquiriesCommand('--persist-to', persistTo, '--status', 'pending')
    expect(list.stdout).toContain(id)
    expect(list.stdout).toContain(`${values.name} <${values.email}>`)
    const shown = await enquiriesCommand('show', id, '--persist-to', persistTo)
    expect(shown.stdout).toContain(`Enquiry ${id}`)
    expect(shown.stdout).toContain('  నమస్కారం')
    expect(shown.stdout).toMatch(/Status: {3}pending/)
    const delivered = await enquiriesCommand('--persist-to', persistTo, '--status', 'delivered')
    expect(delivered.stdout).not.toContain(id)

    // Who ran show and retry is in the audit trail (--as; on the deployed database it is required).
    const lines = () =>
      worker.sql<{ operator: string; action: string; detail: string }>(
        'SELECT operator, action, detail FROM audit_log WHERE enquiry_id = ?',
        id,
      )
    expect(await lines()).toEqual([])
    await enquiriesCommand('show', id, '--persist-to', persistTo, '--as', 'Ops@AksharaLabs.in')
    const retried = await enquiriesCommand(
      'retry',
      id,
      '--persist-to',
      persistTo,
      '--as',
      'ops@aksharalabs.in',
      '--url',
      await worker.cronDoor(),
    )
    expect(retried.code, retried.stderr).toBe(0)
    expect(await lines()).toEqual([
      { operator: 'ops@aksharalabs.in', action: 'open', detail: 'npm run enquiries -- show' },
      { operator: 'ops@aksharalabs.in', action: 'retry', detail: 'was pending, npm run enquiries -- retry' },
    ])
    // --remote without --as and without git's user.email: refused before anything is read.
    for (const command of ['show', 'retry']) {
      const noGit = {
        GIT_DIR: join(persistTo, 'no-repository'),
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_CONFIG_NOSYSTEM: '1',
      }
      const refused = await enquiriesCommandWith(noGit, command, id, '--remote')
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain(
        `${command} --remote writes an audit line naming who ran it: give --as <your e-mail>`,
      )
    }
  }, 240_000)

  test('/api/health says only that the site is up', async () => {
    const answer = await worker.fetch('/api/health')
    expect(answer.status).toBe(200)
    const body = await answer.text()
    expect(JSON.parse(body)).toEqual({ ok: true, version: expect.stringMatching(/^[0-9a-f-]{36}$/) })
    for (const word of ['CONTACT_FORM_ACCESS_KEY', 'form-service', 'missing']) expect(body).not.toContain(word)
  })

  test('without an Access configuration the desk fails closed, even for a token the key server signed', async () => {
    const answer = await worker.fetch('/admin', { headers: { 'Cf-Access-Jwt-Assertion': await stand.keys.sign() } })
    expect(answer.status).toBe(403)
  })
})

describe('the email delivery', () => {
  // Configured for Cloudflare Email: the send_email binding takes the message.
  const worker = siteUnderTest(() => ({
    vars: { CONTACT_DELIVERY: 'email', CONTACT_EMAIL_FROM: 'website@aksharalabs.in' },
  }))

  test('sends the stored enquiry to the company mailbox with Reply-To set to the visitor', async () => {
    const values = enquiry('email', {
      name: 'Śrī Rāma',
      email: `o'brien-${Date.now()}@example.com`,
      subject: 'general',
      message: 'Hello by e-mail.\nBye.',
    })
    expect((await submitContact(worker, values)).status).toBe(200)
    await expect
      .poll(() =>
        worker.sql('SELECT status, attempts, delivered_by AS deliveredBy FROM enquiries WHERE email = ?', values.email),
      )
      .toEqual([{ status: 'delivered', attempts: 1, deliveredBy: 'email' }])
    const [row] = await worker.sql<{ id: string }>('SELECT id FROM enquiries WHERE email = ?', values.email)

    await expect.poll(() => worker.mails().length).toBe(1)
    const [mail] = worker.mails()
    expect(mail?.from).toBe('"Akshara Labs website" <website@aksharalabs.in>')
    expect(mail?.to).toBe(`"${company.name}" <${company.email}>`)
    expect(mail?.replyTo).toBe(`${values.name} <${values.email}>`)
    // The message's other lines: tests/unit/contact-email.
    expect(mail?.text).toContain(`Id:       ${row?.id}`)
  })
})
