// Every `npx wrangler …` the docs write is a command and flags of the pinned wrangler; `npm run cf-typegen`.
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCommand } from '../support/cloudflare/wrangler'
import { documentedCommands } from '../support/documented-commands'
import { wranglerCommands } from '../support/wrangler-commands'
import { copyRepository, REPO } from './support/project'

/** A child's exit code and output: the stand-in's runner, with no stand-in (wrangler's --help needs none). */
async function run(command: string, args: string[], cwd = REPO): Promise<{ code: number; output: string }> {
  const result = await runCommand(command, args, { env: { WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' } }, { cwd })
  return { code: result.code, output: `${result.stdout}${result.stderr}` }
}

/** The real `wrangler <path> --help`. */
const help = (path: string[]) => run('wrangler', [...path, '--help'])

/** The words of a command line, quotes kept together (`--search '"event":"contact"'` is two). */
const words = (line: string) => [...line.matchAll(/'[^']*'|"[^"]*"|\S+/g)].map((m) => m[0])

const { commands, globalFlags } = wranglerCommands()

/** The wrangler command path of `npx wrangler a b c …`: the longest run of words that is a command. */
function commandPath(args: string[]): string[] {
  const path: string[] = []
  for (const word of args) {
    if (!/^[a-z][a-z0-9-]*$/.test(word) || !commands.has([...path, word].join(' '))) break
    path.push(word)
  }
  return path
}

const wranglerCommandLines = documentedCommands(REPO)
  .map((c) => c.command)
  .filter((c) => /^npx wrangler [a-z]/.test(c))

/** The flags a --help text lists (`--name`, `-c` of `-c, --config`, both names of `--route, --routes`). */
const helpFlags = (text: string) =>
  new Set(
    text
      .split('\n')
      .flatMap((line) => /^\s+((?:-\w, )?--[\w-]+(?:, --[\w-]+)*)/.exec(line)?.[1]?.split(', ') ?? [])
      .map((flag) => flag.replace(/^--?/, '')),
  )

describe('the wrangler commands the docs write are the pinned wrangler’s', () => {
  it('finds the runbook’s commands', () => {
    expect(wranglerCommandLines.length).toBeGreaterThanOrEqual(15)
  })

  it.each(wranglerCommandLines)('%s', (line) => {
    const args = words(line).slice(2)
    const path = commandPath(args)
    expect(path.length, `wrangler has no command ${args[0]}`).toBeGreaterThan(0)
    const command = commands.get(path.join(' '))
    expect(command?.hidden, `wrangler ${path.join(' ')} is hidden from --help`).toBe(false)
    for (const flag of args.filter((a) => /^--?[a-z]/.test(a))) {
      const name = flag.replace(/=.*$/, '').replace(/^--?/, '')
      expect(
        [...(command?.flags ?? []), ...globalFlags],
        `wrangler ${path.join(' ')} --help lists no ${flag}`,
      ).toContain(name)
    }
  })

  it.concurrent.each([['deploy'], ['preview']])(
    'the registry says what `wrangler %s --help` says (the adapter still reads wrangler right)',
    async (name) => {
      const path = [name as string]
      const own = await help(path)
      expect(own.code, own.output).toBe(0)
      expect(own.output).toMatch(new RegExp(`^wrangler ${path.join(' ')}\\b`, 'm'))
      const listed = helpFlags(own.output)
      const known = new Set([...(commands.get(path.join(' '))?.flags ?? []), ...globalFlags])
      // A boolean flag that defaults to true is listed as its negation (`--no-bundle`).
      expect([...listed].filter((f) => !known.has(f) && !known.has(f.replace(/^no-/, '')))).toEqual([])
      const registered = commands.get(path.join(' '))?.flags ?? []
      expect(registered.filter((f) => !listed.has(f) && !listed.has(`no-${f}`))).toEqual([])
    },
  )
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
