/**
 * The drills' copy of the repository: what an operator's checkout holds (app/, scripts/,
 * migrations/, wrangler.toml, package.json, docs/, .github/), node_modules linked to this
 * checkout's, and the build `npm test` made (dist/), shared by every drill.
 *
 * A drill edits its copy as an operator edits a checkout (real values for the sample ones, the
 * databases' ids pasted into wrangler.toml). The build's code does not depend on those values, so
 * instead of rebuilding, `syncBuildConfig` writes the build's wrangler configuration
 * (dist/server/wrangler.json) from the copy's wrangler.toml, as `npm run build` does; the first-deploy
 * drill runs the real `npm run deploy` (which builds) and checks that both configurations agree.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { configDifferences } from '../../../scripts/ci/preview-build'
import { type RawConfig, readWranglerConfig } from '../../../scripts/ops-config'

export const REPO = fileURLToPath(new URL('../../../', import.meta.url))

const COPIED = [
  'app',
  'public',
  'scripts',
  'migrations',
  'docs',
  '.github',
  'wrangler.toml',
  'vite.config.ts',
  'package.json',
  'tsconfig.json',
  'worker-configuration.d.ts',
  '.dev.vars.example',
  '.gitignore',
  '.nvmrc',
]

export interface Copy {
  dir: string
  read(path: string): string
  write(path: string, text: string): void
  edit(path: string, change: (text: string) => string): void
  remove(): void
}

export function sharedBuildExists(): boolean {
  return existsSync(join(REPO, 'dist/server/wrangler.json')) && existsSync(join(REPO, 'dist/client'))
}

/** A fresh copy of the repository, with the shared build in dist/. */
export function copyRepository(options: { build?: boolean } = {}): Copy {
  const dir = mkdtempSync(join(tmpdir(), 'drill-repo-'))
  for (const entry of COPIED) cpSync(join(REPO, entry), join(dir, entry), { recursive: true })
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir')
  if (options.build !== false) {
    if (!sharedBuildExists())
      throw new Error('The drills deploy the build `npm run build` makes: run it first (npm test does).')
    cpSync(join(REPO, 'dist'), join(dir, 'dist'), { recursive: true })
  }
  const copy: Copy = {
    dir,
    read: (path) => readFileSync(join(dir, path), 'utf8'),
    write: (path, text) => writeFileSync(join(dir, path), text),
    edit: (path, change) => copy.write(path, change(copy.read(path))),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
  return copy
}

/**
 * What an operator does before going live (docs/operations.md, "First deploy", step 4): each
 * sample value confirmed (its `sample(…)` marker removed), `url` set to the production address,
 * and the sender on a real domain.
 */
export function replaceSamples(copy: Copy, url: string): void {
  const files = ['app/site.ts', ...readdirSync(join(copy.dir, 'app/content')).map((f) => `app/content/${f}`)]
  for (const file of files) {
    if (!file.endsWith('.ts')) continue
    copy.edit(file, (text) => text.replace(/([:=]\s*)sample\(([^()]*)\)/g, '$1$2'))
  }
  setSiteUrl(copy, url)
  copy.edit('wrangler.toml', (toml) => toml.replaceAll('website@aksharalabs.example', 'website@aksharalabs.in'))
}

/** `url` in app/site.ts (docs/operations.md, "Custom domain", step 3). */
export function setSiteUrl(copy: Copy, url: string): void {
  copy.edit('app/site.ts', (text) => {
    const next = text.replace(/^( {2}url: )(?:sample\()?'[^']*'\)?,$/m, `$1'${url}',`)
    if (next === text && !text.includes(`url: '${url}'`)) throw new Error('app/site.ts: no top-level url line to set')
    return next
  })
}

/** Pastes the databases' ids into wrangler.toml, as the runbook says after `wrangler d1 create`. */
export function pinDatabaseIds(copy: Copy, ids: { production: string; previews: string }): void {
  copy.edit('wrangler.toml', (toml) => {
    const blocks = toml.split(/(?=^\[\[)/m)
    return blocks
      .map((block) => {
        if (block.startsWith('[[d1_databases]]'))
          return block.replace(/database_id = "[^"]*"/, `database_id = "${ids.production}"`)
        if (block.startsWith('[[previews.d1_databases]]')) {
          return block.replace(/database_id = "[^"]*"/, `database_id = "${ids.previews}"`)
        }
        return block
      })
      .join('')
  })
}

/**
 * The build's wrangler configuration for the copy's wrangler.toml: every key as the toml has it,
 * with the build's own keys (entry, assets, module rules) and the D1 migrations folder relative to
 * dist/server, as the Cloudflare Vite plugin writes them. Checked with the preview job's own
 * comparison (scripts/ci/preview-build.ts): no difference but the vars may remain.
 */
export function syncBuildConfig(copy: Copy, buildDir = copy.dir): void {
  const path = join(buildDir, 'dist/server/wrangler.json')
  const built = JSON.parse(readFileSync(path, 'utf8')) as RawConfig
  const source = readWranglerConfig(join(copy.dir, 'wrangler.toml'))
  const next: RawConfig = { ...built }
  for (const [key, value] of Object.entries(source)) {
    if (key === 'main') continue
    next[key] = structuredClone(value)
  }
  for (const key of Object.keys(built)) {
    if (!(key in source) && ['routes', 'route'].includes(key)) delete next[key]
  }
  next.d1_databases = (source.d1_databases ?? []).map((d: RawConfig) => ({ ...d, migrations_dir: '../../migrations' }))
  next.configPath = join(copy.dir, 'wrangler.toml')
  next.userConfigPath = join(copy.dir, 'wrangler.toml')
  writeFileSync(path, JSON.stringify(next))
  const differences = configDifferences(next, source)
  if (differences.length > 0)
    throw new Error(`the build's configuration does not follow wrangler.toml: ${differences.join('; ')}`)
}
