/**
 * The drills' copy of the repository: what an operator's checkout holds (app/, scripts/,
 * migrations/, wrangler.toml, package.json, docs/, .github/), node_modules linked to this
 * checkout's, and the build `npm test` made (dist/), shared by every drill. The copy is a git
 * repository of its own: its `main` is the commits a drill makes (`commit`), and a workflow's
 * checkout of a commit is that commit's tree (`checkout`), so a re-run of an old run runs that
 * run's scripts, migrations and workflow files.
 *
 * A drill edits its copy as an operator edits a checkout (real values for the sample ones, the
 * databases' ids pasted into wrangler.toml). The build's code does not depend on those values, so
 * instead of rebuilding, `syncBuildConfig` writes the build's wrangler configuration
 * (dist/server/wrangler.json) from the copy's wrangler.toml, as `npm run build` does; the first-deploy
 * drill runs the real `npm run deploy` (which builds) and checks that both configurations agree.
 */
import { execFileSync } from 'node:child_process'
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
  /** Commits everything changed (git add -A) on the copy's main; returns the commit's sha. */
  commit(message: string): string
  /**
   * Commits everything changed onto `branch` (made from main if new), leaving main and the working
   * tree as they were: a pull request's commit. Returns its sha.
   */
  commitOnBranch(branch: string, message: string): string
  /** A ref's commit. */
  revParse(ref: string): string
  /** A ref's commit, or undefined when there is no such ref. */
  tryRevParse(ref: string): string | undefined
  /** A file as a commit has it, back in the working tree. */
  checkoutFile(ref: string, path: string): void
  /** The sha `main` points at. */
  head(): string
  /** A file as it is in a commit. */
  show(ref: string, path: string): string
  /** The files of a folder as it is in a commit. */
  list(ref: string, folder: string): string[]
  /**
   * A fresh tree of a commit (or branch) in a directory of its own, with node_modules linked, as
   * `actions/checkout` gives a job; removed with the copy.
   */
  checkout(ref: string, options?: { history?: boolean }): string
  remove(): void
}

export function sharedBuildExists(): boolean {
  return existsSync(join(REPO, 'dist/server/wrangler.json')) && existsSync(join(REPO, 'dist/client'))
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Operator',
  GIT_AUTHOR_EMAIL: 'operator@aksharalabs.example',
  GIT_COMMITTER_NAME: 'Operator',
  GIT_COMMITTER_EMAIL: 'operator@aksharalabs.example',
}

function git(dir: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ...GIT_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim()
}

/** A fresh copy of the repository, with the shared build in dist/ and one commit on main. */
export function copyRepository(options: { build?: boolean } = {}): Copy {
  const dir = mkdtempSync(join(tmpdir(), 'drill-repo-'))
  for (const entry of COPIED) cpSync(join(REPO, entry), join(dir, entry), { recursive: true })
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir')
  if (options.build !== false) {
    if (!sharedBuildExists())
      throw new Error('The drills deploy the build `npm run build` makes: run it first (npm test does).')
    cpSync(join(REPO, 'dist'), join(dir, 'dist'), { recursive: true })
  }
  const checkouts: string[] = []
  git(dir, ['init', '-q', '-b', 'main'])
  git(dir, ['add', '-A'])
  git(dir, ['commit', '-q', '-m', 'The repository as the drill found it'])
  const copy: Copy = {
    dir,
    read: (path) => readFileSync(join(dir, path), 'utf8'),
    write: (path, text) => writeFileSync(join(dir, path), text),
    edit: (path, change) => copy.write(path, change(copy.read(path))),
    commit(message) {
      git(dir, ['add', '-A'])
      git(dir, ['commit', '-q', '--allow-empty', '-m', message])
      return copy.head()
    },
    head: () => git(dir, ['rev-parse', 'HEAD']),
    commitOnBranch(branch, message) {
      git(dir, ['add', '-A'])
      const tree = git(dir, ['write-tree'])
      const exists = git(dir, ['branch', '--list', branch]) !== ''
      const parent = exists ? git(dir, ['rev-parse', branch]) : copy.head()
      const commit = git(dir, ['commit-tree', tree, '-p', parent, '-m', message])
      git(dir, ['update-ref', `refs/heads/${branch}`, commit])
      git(dir, ['reset', '-q', '--hard', 'HEAD'])
      return commit
    },
    revParse: (ref) => git(dir, ['rev-parse', ref]),
    tryRevParse(ref) {
      try {
        return git(dir, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
      } catch {
        return undefined
      }
    },
    checkoutFile: (ref, path) => void git(dir, ['checkout', ref, '--', path]),
    show: (ref, path) => git(dir, ['show', `${ref}:${path}`]),
    list: (ref, folder) =>
      git(dir, ['ls-tree', '--name-only', `${ref}:${folder}`])
        .split('\n')
        .filter((name) => /\.ya?ml$/.test(name) || !folder.includes('workflows'))
        .map((name) => `${folder}/${name}`),
    checkout(ref, options = {}) {
      const tree = mkdtempSync(join(tmpdir(), 'drill-checkout-'))
      checkouts.push(tree)
      if (options.history) {
        git(tree, ['clone', '-q', '--no-checkout', dir, '.'])
        git(tree, ['checkout', '-q', '--detach', ref])
      } else {
        execFileSync('bash', ['-c', `git archive --format=tar "$0" | tar -x -C "$1"`, ref, tree], {
          cwd: dir,
          stdio: ['ignore', 'ignore', 'pipe'],
        })
      }
      symlinkSync(join(REPO, 'node_modules'), join(tree, 'node_modules'), 'dir')
      return tree
    },
    remove: () => {
      for (const tree of checkouts) rmSync(tree, { recursive: true, force: true })
      rmSync(dir, { recursive: true, force: true })
    },
  }
  return copy
}

/**
 * What an operator does before going live (docs/operations/first-deploy.md, step 4): each
 * sample value confirmed (its `sample(…)` marker removed), `url` set to the production address,
 * and the sender on a real domain.
 */
export function replaceSamples(copy: Pick<Copy, 'dir' | 'edit'>, url: string): void {
  const files = ['app/site.ts', ...readdirSync(join(copy.dir, 'app/content')).map((f) => `app/content/${f}`)]
  for (const file of files) {
    if (!file.endsWith('.ts')) continue
    copy.edit(file, (text) => text.replace(/([:=]\s*)sample\(([^()]*)\)/g, '$1$2'))
  }
  setSiteUrl(copy, url)
  copy.edit('wrangler.toml', (toml) =>
    toml
      .replaceAll('website@aksharalabs.example', 'website@aksharalabs.in')
      .replace('CONTACT_FORM_SERVER_SIDE = ""', `CONTACT_FORM_SERVER_SIDE = "${SERVER_SIDE_STATEMENT}"`),
  )
}

/** The go-live statement a drill's operator writes: their form service plan accepts the Worker's posts. */
export const SERVER_SIDE_STATEMENT = 'Paid Web3Forms plan; server-side posts from the Worker accepted'

/** `url` in app/site.ts (docs/operations/custom-domain.md, step 3). */
export function setSiteUrl(copy: Pick<Copy, 'edit'>, url: string): void {
  copy.edit('app/site.ts', (text) => {
    const next = text.replace(/^( {2}url: )(?:sample\()?'[^']*'\)?,$/m, `$1'${url}',`)
    if (next === text && !text.includes(`url: '${url}'`)) throw new Error('app/site.ts: no top-level url line to set')
    return next
  })
}

/** Pastes the databases' ids into wrangler.toml, as the runbook says after `wrangler d1 create`. */
export function pinDatabaseIds(copy: Pick<Copy, 'edit'>, ids: { production: string; previews: string }): void {
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
export function syncBuildConfig(copy: Pick<Copy, 'dir'>, buildDir = copy.dir): void {
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

/** The shared build, with its configuration following the wrangler.toml of `tree`, into `tree`'s dist/. */
export function placeBuild(tree: string): void {
  cpSync(join(REPO, 'dist'), join(tree, 'dist'), { recursive: true })
  syncBuildConfig({ dir: tree })
}
