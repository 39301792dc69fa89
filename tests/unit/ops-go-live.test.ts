// @vitest-environment node
import { spawnSync } from 'node:child_process'
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { site } from '~/site'
import { scratchDir } from '../support/scratch'

/** Runs the go-live check the way `npm run deploy` does, against a copy of the project at `root`. */
function goLive(root: string, ...args: string[]) {
  const run = spawnSync(process.execPath, ['scripts/go-live.ts', '--root', root, ...args], { encoding: 'utf8' })
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

/** A temporary copy of what the check reads: app/site.ts, app/content/ and wrangler.toml. */
function copyOfProject(replaced = false): string {
  const root = scratchDir('go-live')
  cpSync('app/site.ts', join(root, 'app/site.ts'))
  cpSync('app/content', join(root, 'app/content'), { recursive: true })
  cpSync('wrangler.toml', join(root, 'wrangler.toml'))
  if (replaced) replaceSamples(root)
  return root
}

/** What an operator does before going live: real values, real ids. */
function replaceSamples(root: string) {
  const files = ['app/site.ts', ...readdirSync(join(root, 'app/content')).map((f) => `app/content/${f}`)]
  for (const file of files) {
    const path = join(root, file)
    if (!path.endsWith('.ts')) continue
    const text = readFileSync(path, 'utf8')
    writeFileSync(path, text.replace(/([:=]\s*)sample\(([^()]*)\)/g, '$1$2'))
  }
  const toml = readFileSync(join(root, 'wrangler.toml'), 'utf8')
  writeFileSync(
    join(root, 'wrangler.toml'),
    toml
      .replaceAll(
        'database_id = "00000000-0000-0000-0000-000000000000"',
        'database_id = "4b1f6c1e-8e0a-4c53-9a52-1f3b2a7d9c10"',
      )
      .replaceAll('id = "00000000000000000000000000000000"', 'id = "0f2ac74b4d3e46b0a5b1b4c1d2e3f405"')
      .replaceAll('aksharalabs.example', 'company.in')
      .replace('CONTACT_FORM_SERVER_SIDE = ""', `CONTACT_FORM_SERVER_SIDE = "${PAID_PLAN}"`),
  )
}

const PAID_PLAN = 'Paid Web3Forms plan; it accepts the Worker’s server-side posts'

// Each run starts Node and loads wrangler's config reader: seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000 })

describe('the go-live check run by `npm run deploy` and the production deploy', () => {
  it('refuses while sample values remain, and lists each with where it lives', () => {
    const { status, output } = goLive(copyOfProject())
    expect(status).toBe(1)
    expect(output).toContain('refusing to deploy to production')
    const ids = ['[[d1_databases]] ENQUIRIES database_id is not set', 'CONTACT_EMAIL_FROM']
    const identity = ['app/site.ts:', `phone: ${site.phone}`, `email: ${site.email}`, 'legalName: Akshara Labs']
    for (const expected of [...identity, 'app/content/about.ts', 'enquiryRetentionDays: 730', 'jurisdiction:', ...ids])
      expect(output).toContain(expected)
  })

  it('passes once every sample value and id is replaced in a copy', () => {
    const root = copyOfProject(true)
    const { status, output } = goLive(root)
    expect(output).toContain('no sample values or unset ids remain')
    expect(status).toBe(0)
  })

  it('refuses a webhook endpoint or secret production would refuse (docs/integrations.md), naming no URL or secret', () => {
    const root = copyOfProject(true)
    const file = join(root, 'production.vars')
    writeFileSync(file, 'WEBHOOK_ENDPOINTS=crm=https://crm.internal/t0k3n\nWEBHOOK_SECRETS=crm=whsec_c2hvcnQ=\n')
    const { status, output } = goLive(root, '--env-file', file)
    expect(status).toBe(1)
    expect(output).toContain('webhooks  WEBHOOK_ENDPOINTS: "crm" is a local name')
    expect(output).not.toMatch(/t0k3n|c2hvcnQ|crm\.internal/)
  })

  it('still refuses when a single sample value is left', () => {
    const root = copyOfProject(true)
    const path = join(root, 'app/site.ts')
    writeFileSync(path, readFileSync(path, 'utf8').replace(/^ {2}phone: '(.*)'/m, "  phone: sample('$1')"))
    const { status, output } = goLive(root)
    expect(status).toBe(1)
    expect(output).toMatch(/app\/site\.ts:\d+\s+phone: \+44 7700 900123/)
  })

  it('refuses an desk with an empty allow-list, or Web3Forms with no plan stated (the rules: ops-config.test.ts)', () => {
    const root = copyOfProject(true)
    const path = join(root, 'wrangler.toml')
    const stated = readFileSync(path, 'utf8')
    writeFileSync(
      path,
      stated
        .replace(/^ACCESS_TEAM_DOMAIN = ""$/m, 'ACCESS_TEAM_DOMAIN = "company.cloudflareaccess.com"')
        .replace(/^ACCESS_AUD = ""$/m, `ACCESS_AUD = "${'a'.repeat(64)}"`)
        .replace(`CONTACT_FORM_SERVER_SIDE = "${PAID_PLAN}"`, 'CONTACT_FORM_SERVER_SIDE = ""'),
    )
    const refused = goLive(root)
    expect(refused.status).toBe(1)
    expect(refused.output).toMatch(/wrangler\.toml\s+ACCESS_ALLOWED_EMAILS is empty while the desk is on/)
    expect(refused.output).toContain('CONTACT_DELIVERY is "form-service" with Web3Forms\' endpoint')
  })

  it('runs before anything is built or uploaded in `npm run deploy` (the CI production deploy: tests/drills/first-deploy.test.ts)', () => {
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts
    expect(scripts.deploy).toMatch(/^node scripts\/go-live\.ts && /)
  })
})

describe('sample values that cannot reach anyone', () => {
  it('the phone number is in Ofcom’s drama range (07700 900000–900999), never allocated', () => {
    expect(site.phoneE164).toMatch(/^\+447700900\d{3}$/)
    expect(site.phone.replaceAll(' ', '')).toBe(site.phoneE164)
  })

  it('every e-mail and web address is on a domain reserved by RFC 2606 (example.com, .example)', () => {
    const addresses = [site.url, site.email, site.product.url, ...Object.values(site.social)]
    for (const address of addresses) {
      const host = address.includes('@') ? address.split('@')[1] : new URL(address).hostname
      expect(host).toMatch(/(^|\.)example(\.com)?$/)
    }
  })
})
