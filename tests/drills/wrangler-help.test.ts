/**
 * Every `npx wrangler …` the README and docs/ write is one the pinned wrangler really has: its
 * command path is listed by `wrangler … --help`, and each flag it uses is in that command's --help.
 * Runs no account and no stand-in. And `npm run cf-typegen`, as the README and the runbook say to
 * run it after changing wrangler.toml, writes the committed worker-configuration.d.ts.
 */
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCommand } from '../support/cloudflare/wrangler'
import { documentedCommands } from '../support/documented-commands'
import { copyRepository, REPO } from './support/project'

/** A child's exit code and output: the stand-in's runner, with no stand-in (wrangler's --help needs none). */
async function run(command: string, args: string[], cwd = REPO): Promise<{ code: number; output: string }> {
  const result = await runCommand(command, args, { env: { WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' } }, { cwd })
  return { code: result.code, output: `${result.stdout}${result.stderr}` }
}

const helpCache = new Map<string, Promise<{ code: number; output: string }>>()
const help = (path: string[]) => {
  const key = path.join(' ')
  if (!helpCache.has(key)) helpCache.set(key, run('wrangler', [...path, '--help']))
  return helpCache.get(key) as Promise<{ code: number; output: string }>
}

/** The words of a command line, quotes kept together (`--search '"event":"contact"'` is two). */
const words = (line: string) => [...line.matchAll(/'[^']*'|"[^"]*"|\S+/g)].map((m) => m[0])

/** The wrangler command path of `npx wrangler a b c …`: each next word its parent's --help lists. */
async function commandPath(args: string[]): Promise<string[]> {
  const path: string[] = []
  for (const word of args) {
    if (!/^[a-z][a-z0-9-]*$/.test(word)) break
    const parent = await help(path)
    const listed = new RegExp(`^\\s*wrangler ${[...path, word].join(' ')}(\\s|$)`, 'm')
    if (!listed.test(parent.output)) break
    path.push(word)
  }
  return path
}

const wranglerCommands = documentedCommands(REPO)
  .map((c) => c.command)
  .filter((c) => /^npx wrangler [a-z]/.test(c))

describe('the wrangler commands the docs write are the pinned wrangler’s', () => {
  it('finds the runbook’s commands', () => {
    expect(wranglerCommands.length).toBeGreaterThanOrEqual(15)
  })

  it.concurrent.each(wranglerCommands)('%s', async (line) => {
    const args = words(line).slice(2)
    const path = await commandPath(args)
    expect(path.length, `wrangler has no command ${args[0]}`).toBeGreaterThan(0)
    const own = await help(path)
    expect(own.code, own.output).toBe(0)
    expect(own.output).toMatch(new RegExp(`^wrangler ${path.join(' ')}\\b`, 'm'))
    for (const flag of args.filter((a) => /^--?[a-z]/.test(a))) {
      const name = flag.replace(/=.*$/, '')
      expect(own.output, `wrangler ${path.join(' ')} --help lists no ${name}`).toMatch(
        new RegExp(`(^|\\s|,)${name}(\\s|,|$)`, 'm'),
      )
    }
  })
})

describe('npm run cf-typegen, as written', () => {
  const copy = copyRepository({ build: false })
  afterAll(() => copy.remove())

  it('writes the committed Env type, and after a change to wrangler.toml the changed one', async () => {
    const committed = readFileSync(join(REPO, 'worker-configuration.d.ts'), 'utf8')
    rmSync(join(copy.dir, 'worker-configuration.d.ts'))
    const fresh = await run('bash', ['-c', 'npm run cf-typegen'], copy.dir)
    expect(fresh.code, fresh.output).toBe(0)
    expect(copy.read('worker-configuration.d.ts')).toBe(committed)

    copy.edit('wrangler.toml', (toml) => toml.replace(/^\[vars\]$/m, '[vars]\nREPLY_BY_HOURS = "24"'))
    const changed = await run('bash', ['-c', 'npm run cf-typegen'], copy.dir)
    expect(changed.code, changed.output).toBe(0)
    expect(copy.read('worker-configuration.d.ts')).toMatch(/REPLY_BY_HOURS: string/)
  })
})
