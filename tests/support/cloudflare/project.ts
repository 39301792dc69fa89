/**
 * A copy of this repository in a temporary directory, for running procedures that edit
 * `wrangler.toml` (pasting database ids, uncommenting routes) and build, without touching the
 * checkout. The copy holds the files git knows (tracked, and untracked ones not ignored), with
 * node_modules linked to the checkout's.
 */
import { execFileSync, spawn } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { REPO_ROOT } from './wrangler.ts'

export interface ProjectCopy {
  dir: string
  /** Path of the copy's wrangler.toml. */
  wranglerToml: string
  readWranglerToml(): string
  writeWranglerToml(text: string): void
  /** `npm run build` in the copy (throws with its output when it fails). */
  build(): Promise<void>
  remove(): void
}

export function copyProject(): ProjectCopy {
  const dir = mkdtempSync(join(tmpdir(), 'project-copy-'))
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean)
  for (const file of files) {
    const target = join(dir, file)
    mkdirSync(dirname(target), { recursive: true })
    try {
      copyFileSync(join(REPO_ROOT, file), target)
    } catch (error) {
      // A tracked file deleted in the working tree is not part of the copy.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir')
  const wranglerToml = join(dir, 'wrangler.toml')
  return {
    dir,
    wranglerToml,
    readWranglerToml: () => readFileSync(wranglerToml, 'utf8'),
    writeWranglerToml: (text) => writeFileSync(wranglerToml, text),
    build: () =>
      new Promise<void>((resolve, reject) => {
        const child = spawn('npm', ['run', 'build'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
        let output = ''
        child.stdout.on('data', (c: Buffer) => {
          output += c.toString()
        })
        child.stderr.on('data', (c: Buffer) => {
          output += c.toString()
        })
        child.on('error', reject)
        child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`npm run build failed:\n${output}`))))
      }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/**
 * Puts database ids into wrangler.toml, as an operator pastes them after `wrangler d1 create`:
 * the `database_id` of the `[[d1_databases]]` entry (production) and of the
 * `[[previews.d1_databases]]` entry (Previews).
 */
export function setDatabaseIds(toml: string, ids: { production?: string; previews?: string }): string {
  let section = ''
  return toml
    .split('\n')
    .map((line) => {
      const header = line.match(/^\s*\[\[?([^\]]+)\]\]?\s*(#.*)?$/)
      if (header) section = header[1]?.trim() ?? ''
      const id =
        section === 'd1_databases' ? ids.production : section === 'previews.d1_databases' ? ids.previews : undefined
      if (id && /^\s*database_id\s*=/.test(line)) return `database_id = "${id}"`
      return line
    })
    .join('\n')
}
