import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { personShell } from './shell-env'

/**
 * A checkout of this repository in a temporary folder, for tests that run the README's and the
 * docs' commands exactly as a newcomer types them (`.dev.vars`, `npm start`, `npm run …`) without
 * touching the developer's own `.dev.vars`, `dist/` or local database. It holds the files git knows
 * (tracked, and new files not ignored) as they are in the working tree, and `node_modules` as
 * installed here, hard-linked (a copy in no time and no space; a symbolic link would not do: Vite's
 * dev server refuses to serve files from outside the project's folder; where the temporary folder is
 * on another file system, a full copy). It lives in the system's temporary folder, as a clone would
 * live anywhere (not under the repository: Vite's dev server will not load a Worker from inside a
 * `.wrangler` folder). Nothing is built or configured: that is what the commands do.
 */
export interface Checkout {
  dir: string
  /** Writes a file in the checkout (e.g. `.dev.vars`), as a person would with an editor. */
  write(file: string, text: string): void
  /**
   * Copies an untracked folder of the repository into the same place in the checkout (the build
   * `npm test` made: `dist/`), without what servers left in it (`.wrangler/`, their
   * `wrangler.local-<port>.json`).
   */
  copyFromRepository(folder: string): void
  /**
   * Runs a command line in the checkout, as typed in a shell, and returns what it printed.
   * Throws with the output when it exits non-zero.
   */
  run(commandLine: string, env?: Record<string, string>): string
  /** Starts a long-running command line (`npm start`, `npm run admin-token`) in its own process group. */
  spawn(commandLine: string, env?: Record<string, string>): Running
  remove(): void
}

export interface Running {
  output(): string
  /** Resolves once the output matches, with the match; rejects when the process exits first or on time-out. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>
  stop(): Promise<void>
}

const REPO = resolve(import.meta.dirname, '../..')

/** Colour codes wrangler and npm print, which a person's terminal hides. */
export const plain = (text: string) => text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')

export function checkout(label: string): Checkout {
  const dir = mkdtempSync(join(tmpdir(), `akshara-${label}-`))
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean)
  for (const file of files) {
    const to = join(dir, file)
    mkdirSync(dirname(to), { recursive: true })
    try {
      copyFileSync(join(REPO, file), to)
    } catch (error) {
      // A file deleted in the working tree but not yet in git's index is not part of the checkout.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  try {
    execFileSync('cp', ['-al', join(REPO, 'node_modules'), join(dir, 'node_modules')], { stdio: 'pipe' })
  } catch {
    rmSync(join(dir, 'node_modules'), { recursive: true, force: true })
    execFileSync('cp', ['-a', join(REPO, 'node_modules'), join(dir, 'node_modules')])
  }

  // A person's shell: the variables the test runner set for itself and its own servers are not theirs.
  const baseEnv = (): NodeJS.ProcessEnv => {
    const env = personShell()
    for (const name of ['ENV_FILE', 'PERSIST_TO', 'SKIP_BUILD', 'LOG_FILE', 'CONFIG', 'CRON_INTERVAL', 'PORT'])
      delete env[name]
    return env
  }

  return {
    dir,
    write(file, text) {
      writeFileSync(join(dir, file), text)
    },
    copyFromRepository(folder) {
      cpSync(join(REPO, folder), join(dir, folder), {
        recursive: true,
        filter: (source) => !/[/\\](\.wrangler|wrangler\.local-[^/\\]*\.json)$/.test(source),
      })
    },
    run(commandLine, env = {}) {
      try {
        return plain(
          execFileSync('bash', ['-c', commandLine], {
            cwd: dir,
            env: { ...baseEnv(), ...env },
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'pipe'],
            maxBuffer: 64 * 1024 * 1024,
          }),
        )
      } catch (error) {
        const failed = error as { stdout?: string; stderr?: string; status?: number }
        throw new Error(
          `\`${commandLine}\` exited with ${failed.status}:\n${plain(`${failed.stdout ?? ''}${failed.stderr ?? ''}`)}`,
        )
      }
    },
    spawn(commandLine, env = {}) {
      return spawnProcess(commandLine, dir, { ...baseEnv(), ...env })
    },
    remove() {
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

function spawnProcess(commandLine: string, cwd: string, env: NodeJS.ProcessEnv): Running {
  let output = ''
  const child: ChildProcess = spawn('bash', ['-c', commandLine], { cwd, env, detached: true })
  const listeners = new Set<() => void>()
  const collect = (chunk: Buffer) => {
    output += plain(chunk.toString())
    for (const listener of listeners) listener()
  }
  child.stdout?.on('data', collect)
  child.stderr?.on('data', collect)
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  return {
    output: () => output,
    waitFor(pattern, timeoutMs) {
      return new Promise((done, fail) => {
        const check = () => {
          const match = output.match(pattern)
          if (match) {
            finish()
            done(match)
          }
        }
        const timer = setTimeout(() => {
          finish()
          fail(new Error(`\`${commandLine}\` did not print ${pattern} within ${timeoutMs / 1000} s:\n${output}`))
        }, timeoutMs)
        const onExit = () => {
          finish()
          fail(new Error(`\`${commandLine}\` exited before printing ${pattern}:\n${output}`))
        }
        const finish = () => {
          clearTimeout(timer)
          listeners.delete(check)
          child.off('exit', onExit)
        }
        listeners.add(check)
        child.once('exit', onExit)
        check()
      })
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null && child.pid) {
        try {
          process.kill(-child.pid, 'SIGTERM')
        } catch {
          // Already gone.
        }
        await exited
      }
    },
  }
}
