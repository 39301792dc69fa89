// The check a pull request's build passes before it is deployed as a Worker Preview.
//
// The build is made by the pull request's own code (.github/workflows/preview.yml, with no secret)
// and handed over as an artifact; the job that deploys it (.github/workflows/preview-deploy.yml)
// runs the default branch's scripts only. What the pull request controls is therefore data: the
// Worker's code (run by Cloudflare, inside the Preview, with the previews' bindings), its static
// files, its migrations (run on the previews' database only) and the wrangler configuration the
// build wrote (dist/server/wrangler.json). That configuration decides which Worker, which
// resources and which commands wrangler uses, so it must be the default branch's: every key is
// compared with wrangler.toml on the default branch, except the vars (the Preview's own settings)
// and what the build itself writes (entry, assets folder, module rules). A pull request that
// changes the Worker's configuration gets no Preview until that change is on the default branch.
// Its migrations must leave the default branch's untouched (scripts/ci/migrations.ts).
//
// Pull requests' Previews are deployed to a Worker of their own, `<name>-previews`, and staging to
// another, `<name>-staging`, never as Previews of the production Worker: a Worker's Previews share
// its Preview URL setting with its versions, and production's versions must have no URL
// (preview_urls = false: every version ever uploaded would otherwise answer on its own URL with
// production's database and secrets). Neither has a production deployment, and an Access
// application of its own covers each whole (docs/operations/previews.md, "Keeping previews private").
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { previewsDatabaseRefusals } from '../d1-migrate-previews.ts'
import type { RawConfig } from '../ops-config.ts'
import { migrationProblems, migrationsIn } from './migrations.ts'

/** The Worker pull requests' Previews live in. */
export function previewsWorkerName(config: RawConfig): string {
  return `${config.name}-previews`
}

/** The Worker staging lives in: apart from pull requests', so an Access application of its own covers it. */
export function stagingWorkerName(config: RawConfig): string {
  return `${config.name}-staging`
}

/** Keys the build writes for local use or bookkeeping: not sent to Cloudflare by a deploy, dropped. */
const DROPPED = new Set(['configPath', 'userConfigPath', 'topLevelName', 'definedEnvironments', 'dev'])
/** Keys wrangler fills in itself (formatting defaults): the same in any build, not compared. */
const DEFAULTED = new Set(['jsx_factory', 'jsx_fragment', 'python_modules'])
/** Keys written by the build from its output, with the only values a build of this project writes. */
const BUILD_OUTPUT: Record<string, unknown> = {
  main: 'index.js',
  no_bundle: true,
  assets: { directory: '../client' },
  rules: [{ type: 'ESModule', globs: ['**/*.js', '**/*.mjs'] }],
}
/** Keys a pull request may change: the Preview's vars (and production's, which a Preview never uses). */
const MAY_DIFFER = new Set(['vars', 'previews.vars'])

function isEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0
  if (value && typeof value === 'object') return Object.values(value).every(isEmpty)
  return value === undefined
}

/** The value with empty arrays and objects (wrangler's defaults) removed, and keys sorted. */
function normalize(value: unknown): unknown {
  if ((Array.isArray(value) || (value && typeof value === 'object')) && isEmpty(value)) return undefined
  if (Array.isArray(value)) return value.map(normalize)
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key]
      if (!isEmpty(item)) out[key] = normalize(item)
    }
    return out
  }
  return value
}

const same = (a: unknown, b: unknown) => JSON.stringify(normalize(a)) === JSON.stringify(normalize(b))

/** D1 entries without their migrations folder (the build rewrites it relative to dist/server). */
function withoutMigrationsDir(databases: unknown): unknown {
  return Array.isArray(databases) ? databases.map(({ migrations_dir: _dir, ...rest }) => rest) : databases
}

function comparable(config: RawConfig): RawConfig {
  const out: RawConfig = { ...config }
  out.d1_databases = withoutMigrationsDir(out.d1_databases)
  if (out.previews) out.previews = { ...out.previews, d1_databases: withoutMigrationsDir(out.previews.d1_databases) }
  return out
}

/** Differences between the build's configuration and the default branch's wrangler.toml. */
export function configDifferences(built: RawConfig, source: RawConfig): string[] {
  const problems: string[] = []
  const b = comparable(built)
  const s = comparable(source)
  for (const [key, value] of Object.entries(BUILD_OUTPUT)) {
    if (!same(b[key], value)) problems.push(`${key} is ${JSON.stringify(b[key])}, not ${JSON.stringify(value)}`)
  }
  const keys = new Set([...Object.keys(b), ...Object.keys(s)])
  for (const key of [...keys].sort()) {
    if (DROPPED.has(key) || DEFAULTED.has(key) || key in BUILD_OUTPUT || MAY_DIFFER.has(key)) continue
    if (key === 'previews') {
      const previewKeys = new Set([...Object.keys(b.previews ?? {}), ...Object.keys(s.previews ?? {})])
      for (const sub of [...previewKeys].sort()) {
        if (MAY_DIFFER.has(`previews.${sub}`)) continue
        if (!same(b.previews?.[sub], s.previews?.[sub]))
          problems.push(`previews.${sub} differs from the default branch's`)
      }
      continue
    }
    if (!same(b[key], s[key])) problems.push(`${key} differs from the default branch's`)
  }
  return problems
}

/** Every file under `dir`, relative to it; symbolic links are reported, never followed. */
function walk(dir: string, base = dir, links: string[] = [], files: string[] = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    const stat = lstatSync(path)
    if (stat.isSymbolicLink()) links.push(relative(base, path))
    else if (stat.isDirectory()) walk(path, base, links, files)
    else files.push(relative(base, path))
  }
  return { links, files }
}

export const BUILD_CONFIG = 'dist/server/wrangler.json'
/** The configuration the preview is deployed with: the build's, checked, without its local keys. */
export const DEPLOY_CONFIG = 'dist/server/wrangler.deploy.json'

/**
 * Everything wrong with a pull request's build at `dir`, against the default branch's config and
 * migrations (`mainMigrations`, the default branch's migrations/ folder).
 */
export function previewBuildProblems(dir: string, source: RawConfig, mainMigrations = 'migrations'): string[] {
  const problems: string[] = []
  if (!existsSync(join(dir, BUILD_CONFIG))) return [`${BUILD_CONFIG} is missing from the build`]
  let built: RawConfig
  try {
    built = JSON.parse(readFileSync(join(dir, BUILD_CONFIG), 'utf8')) as RawConfig
  } catch {
    return [`${BUILD_CONFIG} is not JSON`]
  }
  const { links, files } = walk(dir)
  for (const link of links) problems.push(`${link} is a symbolic link`)
  if (!files.includes('dist/server/index.js')) problems.push('dist/server/index.js is missing from the build')
  for (const file of files) {
    if (file.startsWith('migrations/') && !/^migrations\/\d{4}_[\w-]+\.sql$/.test(file)) {
      problems.push(`${file}: migrations/ may hold only NNNN_name.sql files`)
    }
  }
  problems.push(...configDifferences(built, source).map((p) => `${BUILD_CONFIG}: ${p}`))
  problems.push(...previewsDatabaseRefusals(source))
  problems.push(...migrationProblems(migrationsIn(mainMigrations), migrationsIn(join(dir, 'migrations'))))
  return problems
}

/**
 * Writes the configuration a Preview is deployed with (call only once the build passed the check):
 * the build's, for the previews Worker (no workers.dev of its own, Preview URLs on, none of
 * production's routes or Cron Triggers), optionally with another database for the Previews' binding
 * (staging's), and production's send_email bindings (staging's `email` delivery).
 */
export function writeDeployConfig(
  dir: string,
  options: {
    database?: { database_name: string; database_id: string }
    sendEmail?: RawConfig[]
    /** Another Worker than the previews' (staging's). */
    worker?: string
  } = {},
): string {
  const built = JSON.parse(readFileSync(join(dir, BUILD_CONFIG), 'utf8')) as RawConfig
  for (const key of DROPPED) delete built[key]
  built.name = options.worker ?? previewsWorkerName(built)
  built.workers_dev = false
  built.preview_urls = true
  for (const key of ['routes', 'route', 'triggers']) delete built[key]
  if (options.database) {
    built.previews = {
      ...built.previews,
      d1_databases: (built.previews?.d1_databases ?? []).map((d: RawConfig) => ({ ...d, ...options.database })),
    }
  }
  if (options.sendEmail?.length) built.previews = { ...built.previews, send_email: options.sendEmail }
  const path = join(dir, DEPLOY_CONFIG)
  writeFileSync(path, `${JSON.stringify(built, null, 2)}\n`)
  return path
}
