// @vitest-environment node
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scratchDir } from '../support/scratch'

/** `npm run enquiries -- setup`: the delivery set-up from a terminal, by the Worker's own code. */
function setup(vars: Record<string, string>): string {
  const file = join(scratchDir('setup'), 'local.vars')
  writeFileSync(
    file,
    `${Object.entries(vars)
      .map(([name, value]) => `${name}=${value}`)
      .join('\n')}\n`,
  )
  const run = spawnSync('npm', ['run', '--silent', 'enquiries', '--', 'setup', '--env-file', file], {
    encoding: 'utf8',
  })
  expect(run.status, run.stderr).toBe(0)
  return run.stdout
}

describe('the operator command shows the delivery set-up', () => {
  it('names what the requested delivery lacks, and that nothing is delivered meanwhile', () => {
    const out = setup({})
    expect(out).toMatch(/Delivery in effect\s+none/)
    expect(out).toMatch(/Missing\s+CONTACT_FORM_ACCESS_KEY/)
    expect(out).toMatch(/Rate limiters\s+bound/)
  }, 60_000)

  it('with each part configured: the delivery, the notices, Turnstile and the webhooks, never a value', () => {
    const key = 'operator-check-key-7f3a9c'
    const out = setup({
      CONTACT_FORM_ACCESS_KEY: key,
      ...{ DIGEST_HOUR_UTC: '6', ALERT_AFTER_FAILURES: 'off', RECEIPT_FROM: 'hello@aksharalabs.in' },
      ...{ TURNSTILE_SITE_KEY: '1x00000000000000000000AA', TURNSTILE_SECRET_KEY: 'secret-value-1' },
      WEBHOOK_ENDPOINTS:
        'crm=https://crm.acme.com/hooks/t0k3n team=https://hooks.slack.com/services/T0/B0/s3cr3t bad=ftp://x',
      WEBHOOK_SECRETS: 'crm=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      WEBHOOK_SLACK: 'team',
    })
    expect(out).toMatch(/Delivery in effect\s+form-service/)
    expect(out).toMatch(/Missing\s+nothing/)
    expect(out).toMatch(/Daily digest\s+on: to \S+, daily from 06:00 UTC/)
    expect(out).toMatch(/Delivery alerts\s+off: ALERT_AFTER_FAILURES is off/)
    // Secrets not declared in wrangler.toml's [secrets] required: wrangler would not load them, so off, by name.
    expect(out).toMatch(/Receipt to the sender\s+off: RECEIPT_LINK_SECRET is not set/)
    expect(out).toMatch(/Turnstile \(spam check\)\s+off: TURNSTILE_SECRET_KEY is not set/)
    expect(out).toMatch(
      /Webhooks\s+crm → crm\.acme\.com \(signed JSON\); team → hooks\.slack\.com \(Slack, message body off\)/,
    )
    expect(out).toMatch(/Webhooks refused\s+WEBHOOK_ENDPOINTS: "bad" is not https/)
    expect(out).not.toMatch(/operator-check-key|secret-value-1|t0k3n|s3cr3t|MfKQ9r8G|ftp:/)
  }, 60_000)
})
