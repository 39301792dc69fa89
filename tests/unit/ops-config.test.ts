// @vitest-environment node
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RATE_LIMIT_PERIOD_SECONDS } from '~/contact/limits.server'
import { facts, retentionMonths } from '~/content/facts'
import { privacyPage } from '~/content/privacy'
import { site } from '~/site'
import { previewMigrationConfig, previewsDatabaseRefusals } from '../../scripts/d1-migrate-previews'
import {
  allowListProblems,
  bundledWorkerdDate,
  formServicePlanProblems,
  hygieneProblems,
  missingIds,
  previewUnsetIds,
  productionUnsetIds,
  type RawConfig,
  readWranglerConfig,
  schemaProblems,
} from '../../scripts/ops-config'
import { scratchDir } from '../support/scratch'

const TOML = readFileSync('wrangler.toml', 'utf8')
const config = readWranglerConfig('wrangler.toml')

/** wrangler.toml with `edit` applied, parsed the way wrangler parses it. */
function variant(edit: (toml: string) => string): RawConfig {
  const dir = scratchDir('ops-config')
  const path = join(dir, 'wrangler.toml')
  writeFileSync(path, edit(TOML))
  return readWranglerConfig(path)
}
const clone = (): RawConfig => structuredClone(config)
const withVars = (vars: Record<string, string>, base: RawConfig = clone()): RawConfig => ({
  ...base,
  vars: { ...base.vars, ...vars },
})

describe('wrangler.toml', () => {
  it('reads as wrangler itself reads it (experimental_readRawConfig), without loading wrangler', async () => {
    const { experimental_readRawConfig } = await import('wrangler')
    expect(config).toEqual(experimental_readRawConfig({ config: 'wrangler.toml' }).rawConfig)
  }, 60_000)

  it("passes wrangler 4.151's own config schema", () => {
    expect(schemaProblems(config)).toEqual([])
  })

  it('gives every binding an id, in production and in previews (wrangler preview creates nothing)', () => {
    expect(missingIds(config)).toEqual([])
    expect(config.previews.d1_databases[0].database_name).toBe('akshara-labs-enquiries-preview')
  })

  it('passes the configuration rules (compat date, no redundant nodejs_compat, explicit URLs, source maps, required secret)', () => {
    expect(hygieneProblems(config)).toEqual([])
    expect(config.compatibility_date <= bundledWorkerdDate()).toBe(true)
  })

  it('keeps the enquiry retention var equal to the privacy page’s number', () => {
    expect(config.vars.ENQUIRY_RETENTION_DAYS).toBe(String(facts.enquiryRetentionDays))
  })

  it('rate-limits contact posts over the period the code tells a limited client to wait, in production and in previews', () => {
    // Retry-After is the production limiter's period, put in the code at build time (scripts/wrangler-facts.ts).
    const limiters = [...config.ratelimits, ...config.previews.ratelimits].filter(
      (r: RawConfig) => r.name === 'CONTACT_RATE_LIMITER',
    )
    expect(limiters).toHaveLength(2)
    for (const limiter of limiters) expect(limiter.simple.period).toBe(RATE_LIMIT_PERIOD_SECONDS)
  })

  it('limits per client network beside per client, with the same period (the database counts both in one window), in production and in previews', () => {
    for (const block of [config, config.previews]) {
      const [client, network] = ['CONTACT_RATE_LIMITER', 'CONTACT_NETWORK_RATE_LIMITER'].map((name) =>
        block.ratelimits.find((r: RawConfig) => r.name === name),
      )
      expect(network.simple.period).toBe(RATE_LIMIT_PERIOD_SECONDS)
      expect(network.simple.limit).toBeGreaterThan(client.simple.limit)
      expect(network.namespace_id).not.toBe(client.namespace_id)
    }
  })

  it('names the e-mail destination in one place only (app/site.ts), not in the send_email binding', () => {
    expect(config.send_email[0].destination_address).toBeUndefined()
    expect(TOML).not.toContain(site.email)
  })

  it('holds a ready custom-domain block that, uncommented, lands at the top level and keeps Preview URLs off', () => {
    const live = variant((toml) =>
      toml.replace(/^# routes = \[\n((?:#\s+\{.*\n)+)# \]\n/m, (block) => block.replace(/^# ?/gm, '')),
    )
    expect(live.routes.map((r: RawConfig) => r.pattern)).toEqual(['aksharalabs.in', 'www.aksharalabs.in'])
    expect(schemaProblems(live)).toEqual([])
    expect(live.preview_urls).toBe(false)
    expect(hygieneProblems(live, '2026-10-12')).toEqual([])
    expect(live.previews.ratelimits[0].routes).toBeUndefined()
  })
})

describe('the checks catch what an operator would get wrong', () => {
  it('a routes line pasted at the end of the file lands in [[previews.ratelimits]] and fails the schema', () => {
    const pasted = variant((toml) => `${toml}\nroutes = [{ pattern = "aksharalabs.in", custom_domain = true }]\n`)
    expect(pasted.routes).toBeUndefined()
    expect(schemaProblems(pasted).join('\n')).toMatch(/ratelimits\/1 .*additional properties "routes"/)
  })

  for (const [path, key] of [
    ['d1_databases', 'database_id'],
    ['kv_namespaces', 'id'],
    ['ratelimits', 'namespace_id'],
  ] as const) {
    it(`a ${path} binding without its ${key} fails, in production and in previews`, () => {
      // A binding of this kind, with its id, wherever the config has none (it has no KV today).
      const withBinding = (target: Record<string, unknown[]>) => {
        target[path] ??= [{ binding: 'EXAMPLE', [key]: '0123456789abcdef0123456789abcdef' }]
      }
      const top = clone()
      withBinding(top)
      delete top[path][0][key]
      expect(missingIds(top)).toEqual([expect.stringMatching(new RegExp(`^\\[\\[${path}\\]\\] .* ${key} is missing`))])
      const previews = clone()
      withBinding(previews.previews)
      delete previews.previews[path][0][key]
      expect(missingIds(previews)).toEqual([
        expect.stringMatching(new RegExp(`^\\[\\[previews\\.${path}\\]\\] .* ${key} is missing`)),
      ])
    })
  }

  it('an all-zero id is reported as not created, for production deploys and for previews', () => {
    expect(productionUnsetIds(config).join('\n')).toContain('[[d1_databases]] ENQUIRIES database_id is not set')
    expect(previewUnsetIds(config).join('\n')).toContain('[[previews.d1_databases]] ENQUIRIES database_id is not set')
    const created = clone()
    created.d1_databases[0].database_id = '4b1f6c1e-8e0a-4c53-9a52-1f3b2a7d9c10'
    expect(productionUnsetIds(created).join('\n')).not.toContain('d1_databases')
  })

  it('flags nodejs_compat, a date past the bundled workerd, the docs’ namespace id, missing URLs and source maps', () => {
    const bad = clone()
    bad.compatibility_flags = ['nodejs_compat']
    bad.ratelimits[0].namespace_id = '1001'
    delete bad.preview_urls
    bad.upload_source_maps = false
    expect(hygieneProblems(bad, '2026-10-12')).toHaveLength(4)
    // Every production version would answer on a URL of its own, with production's database and secrets.
    expect(hygieneProblems({ ...clone(), preview_urls: true }, '2026-10-12')).toEqual([
      expect.stringMatching(/^preview_urls must be false/),
    ])
    expect(hygieneProblems({ ...clone(), compatibility_date: '2026-10-19' }, '2026-10-12')[0]).toMatch(
      /later than the bundled workerd/,
    )
  })

  it('flags previews bound to production resources and a form-service delivery without its required secret', () => {
    const bad = clone()
    bad.previews.ratelimits[0].namespace_id = bad.ratelimits[0].namespace_id
    delete bad.secrets
    expect(hygieneProblems(bad)).toEqual([
      expect.stringMatching(/shares production's namespace_id/),
      expect.stringMatching(/\[previews\.ratelimits\]\] CONTACT_RATE_LIMITER namespace_id is production's resource/),
      expect.stringMatching(/does not list CONTACT_FORM_ACCESS_KEY/),
    ])
  })

  it('refuses a previews database that is production’s, by id or by name (npm run check:config, and before any migration)', () => {
    const created = clone()
    created.d1_databases[0].database_id = '4b1f6c1e-8e0a-4c53-9a52-1f3b2a7d9c10'
    created.previews.d1_databases[0].database_id = '9a0e2f4c-1d3b-4e5f-8a6b-7c8d9e0f1a2b'
    expect(hygieneProblems(created)).toEqual([])
    expect(previewsDatabaseRefusals(created)).toEqual([])

    const sameId = structuredClone(created)
    sameId.previews.d1_databases[0].database_id = created.d1_databases[0].database_id
    expect(hygieneProblems(sameId)).toEqual([
      expect.stringMatching(/\[\[previews\.d1_databases\]\] ENQUIRIES database_id 4b1f6c1e-\S+ is production's/),
    ])
    expect(previewsDatabaseRefusals(sameId)).toEqual([expect.stringMatching(/is production's/)])

    const sameName = structuredClone(created)
    sameName.previews.d1_databases[0].database_name = created.d1_databases[0].database_name
    expect(hygieneProblems(sameName)).toEqual([
      expect.stringMatching(/database_name akshara-labs-enquiries is production's/),
    ])

    // Unset ids are not "production's", but nothing may migrate a database that does not exist yet.
    expect(previewsDatabaseRefusals(clone())).toEqual([expect.stringMatching(/database_id is not set/)])
  })

  it('flags Turnstile turned on without its secret required, and a stand-in siteverify left in the file', () => {
    expect(hygieneProblems(clone()).join('\n')).not.toMatch(/TURNSTILE/)
    const half = withVars({ TURNSTILE_SITE_KEY: '0x4AAAAAAAexample' })
    expect(hygieneProblems(half)).toEqual([
      expect.stringMatching(/TURNSTILE_SITE_KEY is set but \[secrets\] required does not list TURNSTILE_SECRET_KEY/),
    ])
    half.secrets.required.push('TURNSTILE_SECRET_KEY')
    expect(hygieneProblems(half)).toEqual([])
    expect(hygieneProblems(withVars({ TURNSTILE_VERIFY_URL: 'http://127.0.0.1:9/siteverify' }))).toEqual([
      expect.stringMatching(/TURNSTILE_VERIFY_URL is for tests/),
    ])
  })

  it('flags the receipt or early access turned on without its link secret required', () => {
    for (const [from, secret] of [
      ['RECEIPT_FROM', 'RECEIPT_LINK_SECRET'],
      ['EARLY_ACCESS_FROM', 'EARLY_ACCESS_LINK_SECRET'],
    ] as const) {
      expect(hygieneProblems(clone()).join('\n')).not.toContain(secret)
      const half = withVars({ [from]: 'hello@aksharalabs.in' })
      expect(hygieneProblems(half)).toEqual([`${from} is set but [secrets] required does not list ${secret}`])
      half.secrets.required.push(secret)
      expect(hygieneProblems(half)).toEqual([])
    }
  })

  it('flags a stand-in Access key server left in the file, in production and in previews', () => {
    expect(hygieneProblems(clone()).join('\n')).not.toMatch(/ACCESS_CERTS_URL/)
    const certs = { ACCESS_CERTS_URL: 'http://127.0.0.1:8790/cdn-cgi/access/certs' }
    const said = 'ACCESS_CERTS_URL is for tests and local use only: leave it empty in wrangler.toml'
    expect(hygieneProblems(withVars(certs))).toEqual([said])
    const preview = clone()
    preview.previews.vars = { ...preview.previews.vars, ...certs }
    expect(hygieneProblems(preview)).toEqual([`[previews.vars] ${said}`])
  })

  it('flags an desk turned on with an empty allow-list and no reason, and accepts a list or a written reason', () => {
    expect(allowListProblems(clone())).toEqual([])
    const on = withVars({ ACCESS_TEAM_DOMAIN: 'company.cloudflareaccess.com', ACCESS_AUD: 'a'.repeat(64) })
    expect(hygieneProblems(on)).toEqual([expect.stringMatching(/^ACCESS_ALLOWED_EMAILS is empty while the desk is on/)])
    for (const empty of ['', ' ', ' , '])
      expect(allowListProblems(withVars({ ACCESS_ALLOWED_EMAILS: empty }, on)), empty).toHaveLength(1)
    expect(allowListProblems(withVars({ ACCESS_ALLOWED_EMAILS: 'owner@company.in' }, on))).toEqual([])
    for (const notAReason of ['yes', '*', 'true', 'policy-only-on-purpose', 'x'.repeat(40)])
      expect(allowListProblems(withVars({ ACCESS_POLICY_ONLY_REASON: notAReason }, on)), notAReason).toEqual([
        expect.stringMatching(/ACCESS_POLICY_ONLY_REASON ".*" is not a reason/),
      ])
    const reason = 'Only the two owners are in the Access policy; reviewed quarterly.'
    expect(allowListProblems(withVars({ ACCESS_POLICY_ONLY_REASON: reason }, on))).toEqual([])
    // Half on (one of the two set) counts as on.
    expect(allowListProblems(withVars({ ACCESS_AUD: 'a'.repeat(64) }))).toHaveLength(1)
  })

  it.each([
    ['refuses Web3Forms with no plan stated, naming the three ways forward', {}, 1],
    ['refuses a statement that is not a sentence', { CONTACT_FORM_SERVER_SIDE: 'paid' }, 1],
    ['accepts a stated plan', { CONTACT_FORM_SERVER_SIDE: 'Paid Web3Forms plan; it accepts server-side posts' }, 0],
    ['accepts the e-mail delivery', { CONTACT_DELIVERY: 'email' }, 0],
    ['accepts another form service', { CONTACT_FORM_ENDPOINT: 'https://forms.company.in/submit' }, 0],
  ])('the form-service plan check %s', (_, vars, problems) => {
    const found = formServicePlanProblems(withVars({ CONTACT_FORM_SERVER_SIDE: '', ...vars }))
    expect(found).toHaveLength(problems)
    const ways = ['set CONTACT_FORM_SERVER_SIDE', 'CONTACT_DELIVERY = "email"', 'set CONTACT_FORM_ENDPOINT to another']
    for (const way of problems ? ways : []) expect(found[0]).toContain(way)
  })

  it('`npm run check:config` says so and exits 1', () => {
    const dir = scratchDir('check-config')
    writeFileSync(
      join(dir, 'wrangler.toml'),
      TOML.replace(/^ACCESS_TEAM_DOMAIN = ""$/m, 'ACCESS_TEAM_DOMAIN = "company.cloudflareaccess.com"').replace(
        /^ACCESS_CERTS_URL = ""$/m,
        'ACCESS_CERTS_URL = "http://127.0.0.1:8790/cdn-cgi/access/certs"',
      ),
    )
    // What `npm run check:config` runs, in a folder holding the edited wrangler.toml.
    const run = spawnSync(process.execPath, [join(process.cwd(), 'scripts/ops-config.ts')], {
      cwd: dir,
      encoding: 'utf8',
    })
    expect(run.status).toBe(1)
    expect(run.stderr).toContain('wrangler.toml: ACCESS_CERTS_URL is for tests and local use only')
    expect(run.stderr).toContain('wrangler.toml: ACCESS_ALLOWED_EMAILS is empty while the desk is on')
  }, 60_000)
})

describe('one source for names and facts', () => {
  it('the web manifest carries the name and colour from app/site.ts (run `npm run images` after changing them)', () => {
    const manifest = JSON.parse(readFileSync('public/site.webmanifest', 'utf8'))
    expect(manifest).toMatchObject({ name: site.name, short_name: site.name, theme_color: site.themeColor })
  })

  it('the privacy page states the retention and the log period from app/content/facts.ts', () => {
    const text = privacyPage.sections.flatMap((s) => [...s.paragraphs, ...(s.list ?? [])]).join(' ')
    expect(retentionMonths()).toBe(24)
    for (const words of [
      `${facts.enquiryRetentionDays} days (${retentionMonths()} months)`,
      `held back as suspected spam`,
      `deleted ${facts.heldRetentionDays} days after we receive it`,
      'keyed hash',
      'Cloudflare D1',
      `at most ${facts.logRetentionDays} days`,
      `D1 Time Travel), still holds an enquiry for at most ${facts.restoreHistoryDays} days`,
    ])
      expect(text).toContain(words)
  })

  it('the preview migrations config lists the previews’ database at the top level', () => {
    const generated = previewMigrationConfig(config, '.wrangler/ops')
    expect(generated.d1_databases).toEqual([
      expect.objectContaining({ database_name: 'akshara-labs-enquiries-preview', migrations_dir: '../../migrations' }),
    ])
  })
})
