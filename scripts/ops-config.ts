// Checks of wrangler.toml that wrangler itself does not make (or only warns about), used by
// tests/unit/ops-config.test.ts (so `npm test` fails on them) and by scripts/go-live.ts.
//   node scripts/ops-config.ts   prints every problem and exits 1 if there is one.
//   node scripts/ops-config.ts --env-file <file>   also checks the webhooks' secrets in that file
//                 (they are checked in the environment too): WEBHOOK_ENDPOINTS, WEBHOOK_SECRETS.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { parseArgs, parseEnv } from 'node:util'
import Ajv from 'ajv'
import { parse as parseToml } from 'smol-toml'
import { webhookSetup } from '../app/contact/webhooks.ts'

// biome-ignore lint/suspicious/noExplicitAny: the raw TOML as parsed by wrangler, checked against its schema below.
export type RawConfig = Record<string, any>

const require = createRequire(import.meta.url)

/** A file at the root of an installed package (whose `exports` may not list it). */
function packageFile(name: string, file: string): string {
  let dir = dirname(require.resolve(name))
  while (!dir.endsWith(`node_modules/${name}`) && dirname(dir) !== dir) dir = dirname(dir)
  return join(dir, file)
}

/**
 * wrangler.toml (or a wrangler JSON config) as written, before wrangler fills in its defaults: what
 * wrangler's experimental_readRawConfig returns for it, parsed with the TOML parser wrangler 4.151
 * bundles (smol-toml 1.9.0). Not through wrangler itself: loading its 15 MB bundle costs every
 * deploy script about two seconds of CPU before it does anything. tests/unit/ops-config.test.ts
 * checks that both readings agree.
 */
export function readWranglerConfig(path = 'wrangler.toml'): RawConfig {
  const text = readFileSync(path, 'utf8')
  return (path.endsWith('.toml') ? parseToml(text) : JSON.parse(text)) as RawConfig
}

/** An id that marks "not created yet": empty, or all zeros (with or without dashes). */
export function isUnsetId(id: unknown): boolean {
  return typeof id !== 'string' || /^[0-]*$/.test(id)
}

interface Block {
  path: string
  config: RawConfig
}

function blocks(config: RawConfig): Block[] {
  const out: Block[] = [{ path: '', config }]
  if (config.previews) out.push({ path: 'previews.', config: config.previews })
  return out
}

/** The id-carrying bindings of one block: [where, id]. */
function ids(block: Block): [string, unknown][] {
  const { path, config } = block
  return [
    ...(config.d1_databases ?? []).map((d: RawConfig): [string, unknown] => [
      `[[${path}d1_databases]] ${d.binding} database_id`,
      d.database_id,
    ]),
    ...(config.kv_namespaces ?? []).map((k: RawConfig): [string, unknown] => [
      `[[${path}kv_namespaces]] ${k.binding} id`,
      k.id,
    ]),
    ...(config.ratelimits ?? []).map((r: RawConfig): [string, unknown] => [
      `[[${path}ratelimits]] ${r.name} namespace_id`,
      r.namespace_id,
    ]),
  ]
}

/**
 * Bindings with no id at all, in production and in `[previews]`. `wrangler preview` creates no
 * resources, so a preview binding without an id uploads a binding to nothing; production gets the
 * same rule so that both stories are one ("create it, paste its id").
 */
export function missingIds(config: RawConfig): string[] {
  return blocks(config).flatMap((block) =>
    ids(block)
      .filter(([, id]) => id === undefined || id === '')
      .map(([where]) => `${where} is missing`),
  )
}

/** Production bindings whose id is still the all-zero placeholder (deploys refuse them). */
export function productionUnsetIds(config: RawConfig): string[] {
  return ids({ path: '', config })
    .filter(([, id]) => isUnsetId(id))
    .map(([where]) => `${where} is not set (create the resource and paste its id)`)
}

/** Preview bindings whose id is still the all-zero placeholder (the preview workflow refuses them). */
export function previewUnsetIds(config: RawConfig): string[] {
  if (!config.previews) return []
  return ids({ path: 'previews.', config: config.previews })
    .filter(([, id]) => isUnsetId(id))
    .map(([where]) => `${where} is not set (create the resource and paste its id)`)
}

/**
 * Why the previews' database could be production's: a `[[previews.d1_databases]]` entry with the
 * id or the name of a production `[[d1_databases]]` entry. Pull requests' code and migrations run
 * against the previews' database, so it must never be production's. (Both ids still unset is
 * not reported here: deploys and previews refuse unset ids on their own.)
 */
export function previewsDatabaseProblems(config: RawConfig): string[] {
  const production: RawConfig[] = config.d1_databases ?? []
  const problems: string[] = []
  for (const db of (config.previews?.d1_databases ?? []) as RawConfig[]) {
    const sameId = production.find((p) => !isUnsetId(db.database_id) && p.database_id === db.database_id)
    const sameName = production.find((p) => p.database_name && p.database_name === db.database_name)
    if (sameId) {
      problems.push(
        `[[previews.d1_databases]] ${db.binding} database_id ${db.database_id} is production's (${sameId.database_name}): previews must have their own database`,
      )
    } else if (sameName) {
      problems.push(
        `[[previews.d1_databases]] ${db.binding} database_name ${db.database_name} is production's: previews must have their own database`,
      )
    }
  }
  return problems
}

/**
 * wrangler 4.151's config-schema.json, with one correction: it describes `previews.observability`
 * with the wrong type (the whole environment), so a valid `[previews.observability]` fails it.
 * wrangler's own validator accepts the same block (the dry run passes), so it is pointed at
 * the schema's `Observability` definition, the type wrangler's source uses.
 */
function wranglerSchema(): object {
  const schema = JSON.parse(readFileSync(packageFile('wrangler', 'config-schema.json'), 'utf8'))
  const previews = schema.definitions?.PreviewsConfig?.properties
  if (previews?.observability?.$ref && schema.definitions.Observability) {
    previews.observability = { $ref: '#/definitions/Observability' }
  }
  return schema
}

/** Problems against wrangler's JSON schema: unknown keys, wrong types, keys in the wrong table. */
export function schemaProblems(config: RawConfig): string[] {
  const ajv = new Ajv({ allErrors: true, strict: false })
  const validate = ajv.compile(wranglerSchema())
  if (validate(config)) return []
  return (validate.errors ?? []).map((e) => {
    const extra =
      e.keyword === 'additionalProperties'
        ? ` "${(e.params as { additionalProperty: string }).additionalProperty}"`
        : ''
    return `${e.instancePath || '/'} ${e.message}${extra}`
  })
}

/** The workerd compatibility date bundled with the installed wrangler (its package version 1.YYYYMMDD.x). */
export function bundledWorkerdDate(): string {
  const { version } = JSON.parse(readFileSync(packageFile('workerd', 'package.json'), 'utf8')) as { version: string }
  const digits = /^1\.(\d{4})(\d{2})(\d{2})\./.exec(version)
  if (!digits) throw new Error(`unexpected workerd version ${version}`)
  return `${digits[1]}-${digits[2]}-${digits[3]}`
}

/** From this compatibility date on, Node.js compatibility is on without the flag. */
export const NODEJS_COMPAT_DEFAULT_ON_DATE = '2026-08-04'
/** The namespace_id of Cloudflare's rate-limiting example, which other Workers in an account may already use. */
export const DOCS_EXAMPLE_NAMESPACE_ID = '1001'

/** Variables for tests and local use only (a stand-in siteverify, a stand-in Access key server). */
export const LOCAL_ONLY_VARS = ['TURNSTILE_VERIFY_URL', 'ACCESS_CERTS_URL'] as const

/** The shortest `ACCESS_POLICY_ONLY_REASON` taken as a reason someone wrote on purpose (a sentence, not "yes"). */
export const POLICY_ONLY_REASON_MIN = 20

/**
 * The desk's second fence, in production: once the desk is on (`ACCESS_TEAM_DOMAIN` or
 * `ACCESS_AUD` set), `ACCESS_ALLOWED_EMAILS` must list the operators, unless
 * `ACCESS_POLICY_ONLY_REASON` says, in a sentence, why the Access policy alone may decide who
 * reads every enquiry. Used by `npm run check:config` and by the go-live check.
 */
export function allowListProblems(config: RawConfig): string[] {
  const text = (name: string) => String(config.vars?.[name] ?? '').trim()
  if (!text('ACCESS_TEAM_DOMAIN') && !text('ACCESS_AUD')) return []
  const listed = text('ACCESS_ALLOWED_EMAILS')
    .split(',')
    .filter((email) => email.trim())
  if (listed.length > 0) return []
  const reason = text('ACCESS_POLICY_ONLY_REASON')
  if (reason.length >= POLICY_ONLY_REASON_MIN && /\s/.test(reason)) return []
  return [
    reason
      ? `ACCESS_POLICY_ONLY_REASON "${reason}" is not a reason: write, in a sentence of ${POLICY_ONLY_REASON_MIN} characters or more, why the Access policy alone may decide who reads the desk (docs/desk.md)`
      : "ACCESS_ALLOWED_EMAILS is empty while the desk is on, so the Access policy alone would decide who reads every enquiry: list the operators' addresses, or set ACCESS_POLICY_ONLY_REASON to why the policy is enough (docs/desk.md)",
  ]
}

/** Web3Forms' form endpoint's host: the default CONTACT_FORM_ENDPOINT. */
export const WEB3FORMS_HOST = 'api.web3forms.com'
const DEFAULT_FORM_ENDPOINT = `https://${WEB3FORMS_HOST}/submit`

/**
 * `form-service` with Web3Forms' endpoint, unless CONTACT_FORM_SERVER_SIDE states (a sentence of 20
 * characters or more) that the plan accepts the Worker's posts. Web3Forms' API reference: server-side
 * submissions need a paid plan and an allow-listed server IP, and a Worker has no fixed IP
 * (https://docs.web3forms.com/getting-started/api-reference). The go-live check refuses it.
 */
export function formServicePlanProblems(config: RawConfig): string[] {
  const text = (name: string) => String(config.vars?.[name] ?? '').trim()
  if ((text('CONTACT_DELIVERY') || 'form-service') !== 'form-service') return []
  const endpoint = text('CONTACT_FORM_ENDPOINT') || DEFAULT_FORM_ENDPOINT
  let host: string
  try {
    host = new URL(endpoint).hostname
  } catch {
    return []
  }
  if (host !== WEB3FORMS_HOST) return []
  const statement = text('CONTACT_FORM_SERVER_SIDE')
  if (statement.length >= POLICY_ONLY_REASON_MIN && /\s/.test(statement)) return []
  return [
    `CONTACT_DELIVERY is "form-service" with Web3Forms' endpoint (${endpoint}), which accepts server-side posts only on a paid plan from an allow-listed IP, and a Worker has no fixed IP: every enquiry would be refused. Three ways forward: set CONTACT_FORM_SERVER_SIDE to a sentence (${POLICY_ONLY_REASON_MIN}+ characters) stating that your plan accepts the Worker's server-side posts; or set CONTACT_DELIVERY = "email" (docs/operations/email-delivery.md); or set CONTACT_FORM_ENDPOINT to another form service that accepts them (docs/operations/first-deploy.md, step 4)`,
  ]
}

/** Hygiene rules from docs/operations/configuration-rules.md. */
export function hygieneProblems(config: RawConfig, workerdDate = bundledWorkerdDate()): string[] {
  const problems: string[] = []
  const date: string = config.compatibility_date
  if (!date || date > workerdDate) {
    problems.push(`compatibility_date ${date} is later than the bundled workerd's ${workerdDate}`)
  }
  const flags: string[] = config.compatibility_flags ?? []
  if (date >= NODEJS_COMPAT_DEFAULT_ON_DATE && flags.some((f) => f === 'nodejs_compat' || f === 'nodejs_compat_v2')) {
    problems.push(`nodejs_compat is redundant: compatibility dates from ${NODEJS_COMPAT_DEFAULT_ON_DATE} enable it`)
  }
  if (config.workers_dev === undefined || config.preview_urls === undefined) {
    problems.push('workers_dev and preview_urls must be set explicitly (with routes, both default to off)')
  } else if (config.preview_urls !== false) {
    problems.push(
      "preview_urls must be false: every production version would answer on a URL of its own with production's database and secrets (Previews live in the previews Worker)",
    )
  }
  if (config.upload_source_maps !== true) problems.push('upload_source_maps must be true')
  for (const block of blocks(config)) {
    for (const r of block.config.ratelimits ?? []) {
      if (r.namespace_id === DOCS_EXAMPLE_NAMESPACE_ID) {
        problems.push(
          `[[${block.path}ratelimits]] ${r.name} uses the docs' example namespace_id ${DOCS_EXAMPLE_NAMESPACE_ID}`,
        )
      }
    }
  }
  const prodRl = new Set((config.ratelimits ?? []).map((r: RawConfig) => r.namespace_id))
  for (const r of config.previews?.ratelimits ?? []) {
    if (prodRl.has(r.namespace_id)) problems.push(`[[previews.ratelimits]] ${r.name} shares production's namespace_id`)
  }
  const prodIds = new Set(
    ids({ path: '', config })
      .map(([, id]) => id)
      .filter((id) => !isUnsetId(id)),
  )
  for (const [where, id] of config.previews ? ids({ path: 'previews.', config: config.previews }) : []) {
    // D1 is checked by id and by name just below.
    if (prodIds.has(id) && !where.startsWith('[[previews.d1_databases]]')) {
      problems.push(`${where} is production's resource: previews must not write to it`)
    }
  }
  problems.push(...previewsDatabaseProblems(config))
  const required: string[] = config.secrets?.required ?? []
  if (config.vars?.CONTACT_DELIVERY === 'form-service' && !required.includes('CONTACT_FORM_ACCESS_KEY')) {
    problems.push('CONTACT_DELIVERY is "form-service" but [secrets] required does not list CONTACT_FORM_ACCESS_KEY')
  }
  if (String(config.vars?.TURNSTILE_SITE_KEY ?? '').trim() && !required.includes('TURNSTILE_SECRET_KEY')) {
    problems.push('TURNSTILE_SITE_KEY is set but [secrets] required does not list TURNSTILE_SECRET_KEY')
  }
  if (String(config.vars?.RECEIPT_FROM ?? '').trim() && !required.includes('RECEIPT_LINK_SECRET')) {
    problems.push('RECEIPT_FROM is set but [secrets] required does not list RECEIPT_LINK_SECRET')
  }
  if (String(config.vars?.EARLY_ACCESS_FROM ?? '').trim() && !required.includes('EARLY_ACCESS_LINK_SECRET')) {
    problems.push('EARLY_ACCESS_FROM is set but [secrets] required does not list EARLY_ACCESS_LINK_SECRET')
  }
  // Stand-ins on this machine only: set in a deployment, they would point a check at another host.
  for (const block of blocks(config)) {
    for (const name of LOCAL_ONLY_VARS) {
      if (String(block.config.vars?.[name] ?? '').trim()) {
        const where = block.path ? `[${block.path}vars] ` : ''
        problems.push(`${where}${name} is for tests and local use only: leave it empty in wrangler.toml`)
      }
    }
  }
  problems.push(...allowListProblems(config))
  if (config.observability?.enabled !== true) problems.push('[observability] must be enabled (alerting depends on it)')
  return problems
}

/**
 * The webhooks as production would run them (docs/integrations.md): each endpoint https to a
 * public name (no IP address, no local name), each signing secret `whsec_` with 24 bytes or more.
 * The endpoints and secrets are secrets, so they are read from `secrets` (the environment, or the
 * file given to --env-file), the Slack names from wrangler.toml's vars. Names, never values.
 */
export function webhookProblems(config: RawConfig, secrets: Record<string, string | undefined>): string[] {
  const vars = { ...config.vars, ...secrets }
  return webhookSetup(
    {
      WEBHOOK_ENDPOINTS: vars.WEBHOOK_ENDPOINTS,
      WEBHOOK_SECRETS: vars.WEBHOOK_SECRETS,
      WEBHOOK_SLACK: vars.WEBHOOK_SLACK,
      WEBHOOK_SLACK_BODY: vars.WEBHOOK_SLACK_BODY,
    },
    { production: true },
  ).problems
}

/** The environment, with the file `--env-file` names over it. */
export function secretsFrom(argv: string[]): Record<string, string | undefined> {
  const { values } = parseArgs({ args: argv, options: { 'env-file': { type: 'string' } } })
  const file = values['env-file']
  return { ...process.env, ...(file ? parseEnv(readFileSync(file, 'utf8')) : {}) }
}

if (import.meta.main) {
  const config = readWranglerConfig()
  const secrets = secretsFrom(process.argv.slice(2))
  const problems = [...schemaProblems(config), ...missingIds(config), ...hygieneProblems(config)]
  for (const p of problems) console.error(`wrangler.toml: ${p}`)
  const hooks = webhookProblems(config, secrets)
  for (const p of hooks) console.error(`webhooks: ${p}`)
  if (problems.length + hooks.length > 0) process.exit(1)
  console.log('wrangler.toml: schema, ids and configuration rules all pass')
  if (secrets.WEBHOOK_ENDPOINTS?.trim()) console.log('webhooks: every endpoint and secret passes')
}
