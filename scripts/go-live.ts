// Go-live check: refuses a production deploy while the site still carries sample content or
// configuration that was never filled in. Run by `npm run deploy` and by the production deploy in
// .github/workflows/ci.yml, before anything is uploaded. Previews, staging and `npm start` never run it.
//
//   node scripts/go-live.ts [--root <dir>]
//
// Lists, and exits 1 while any remains:
//   - every value marked `sample(…)` in app/site.ts and app/content/ (see `sample` in app/site.ts);
//   - every production binding in wrangler.toml whose id is still the all-zero "not created" marker;
//   - every var in wrangler.toml on a reserved `.example` domain;
//   - an desk turned on with an empty e-mail allow-list and no reason given (ACCESS_POLICY_ONLY_REASON);
//   - the form-service delivery to Web3Forms' endpoint with no statement that the plan accepts
//     server-side posts (CONTACT_FORM_SERVER_SIDE);
//   - a webhook endpoint or secret in its environment (or --env-file) that production refuses
//     (docs/integrations.md): not https, an IP address or a local name; a secret not whsec_ of 24 bytes.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { parseArgs, parseEnv } from 'node:util'
import {
  allowListProblems,
  formServicePlanProblems,
  productionUnsetIds,
  readWranglerConfig,
  webhookProblems,
} from './ops-config.ts'

export interface Finding {
  where: string
  what: string
}

const SAMPLE_CALL = /\bsample\(\s*(?:'([^']*)'|"([^"]*)"|`([^`]*)`|(-?\d+(?:\.\d+)?))\s*\)/g

/** Every `sample(…)` call in the site's identity and content files under `root`. */
export function sampleFindings(root: string): Finding[] {
  const files = [join(root, 'app/site.ts'), ...listTs(join(root, 'app/content'))].filter((f) => existsSync(f))
  const findings: Finding[] = []
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(\/\/|\*|\/\*)/.test(line)) return
        for (const m of line.matchAll(SAMPLE_CALL)) {
          const value = m[1] ?? m[2] ?? m[3] ?? m[4] ?? ''
          const key = /^\s*([A-Za-z_$][\w$]*)\s*:/.exec(line)?.[1]
          findings.push({ where: `${relative(root, file)}:${i + 1}`, what: `${key ? `${key}: ` : ''}${value}` })
        }
      })
  }
  return findings
}

/** Production settings in wrangler.toml that are still placeholders; webhooks production refuses. */
export function configFindings(root: string, secrets: Record<string, string | undefined> = {}): Finding[] {
  const config = readWranglerConfig(join(root, 'wrangler.toml'))
  const findings: Finding[] = [
    ...productionUnsetIds(config),
    ...allowListProblems(config),
    ...formServicePlanProblems(config),
  ].map((what) => ({
    where: 'wrangler.toml',
    what,
  }))
  for (const what of webhookProblems(config, secrets)) findings.push({ where: 'webhooks', what })
  for (const [name, value] of Object.entries(config.vars ?? {})) {
    if (typeof value === 'string' && /[@.]([a-z0-9-]+\.)*example(\b|$)/i.test(value)) {
      findings.push({ where: 'wrangler.toml', what: `[vars] ${name} = "${value}" is on a reserved .example domain` })
    }
  }
  return findings
}

function listTs(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return listTs(path)
    return /\.tsx?$/.test(name) ? [path] : []
  })
}

export function goLiveFindings(root: string, secrets: Record<string, string | undefined> = {}): Finding[] {
  return [...sampleFindings(root), ...configFindings(root, secrets)]
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { root: { type: 'string', default: '.' }, 'env-file': { type: 'string' } },
  })
  const file = values['env-file']
  const findings = goLiveFindings(values.root, {
    ...process.env,
    ...(file ? parseEnv(readFileSync(file, 'utf8')) : {}),
  })
  if (findings.length > 0) {
    console.error(`Go-live check: refusing to deploy to production. ${findings.length} value(s) still to replace:\n`)
    const width = Math.max(...findings.map((f) => f.where.length))
    for (const f of findings) console.error(`  ${f.where.padEnd(width)}  ${f.what}`)
    console.error(
      '\nReplace each sample value with the real one (or confirm it by removing its `sample(…)` marker),' +
        '\ncreate the missing resources and paste their ids (docs/operations/first-deploy.md),' +
        "\nname the desk's operators or the reason for none (docs/desk.md)," +
        '\nchoose a delivery the form service accepts from a Worker (docs/operations/first-deploy.md, step 4), then deploy again.' +
        '\nPreviews (`wrangler preview`) and `npm start` are not affected by this check.',
    )
    process.exit(1)
  }
  console.log('Go-live check: no sample values or unset ids remain.')
}
