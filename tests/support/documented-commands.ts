/**
 * Every command README.md and docs/ (its subfolders too) tell a person to run, as written: each line of a shell
 * block, and each inline `code` span that starts with a command (npm, npx, curl, node, git, sudo,
 * or a VAR=value in front of one). A `# comment` after a command is not part of it.
 *
 * tests/unit/documented-commands.test.ts holds each one to the test that runs it (the ledger
 * below); tests/drills/wrangler-help.test.ts checks each `npx wrangler …` against the pinned
 * wrangler's own --help.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export const DOCUMENTS = [
  'README.md',
  ...readdirSync('docs', { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
]

const COMMAND = /^(?:[A-Z][A-Z0-9_]*=\S*\s+)*(?:npm|npx|curl|node|git|sudo|bash)\s/

export interface DocumentedCommand {
  command: string
  /** The documents it is written in. */
  where: string[]
}

/** The commands of one Markdown text, in order, each once. */
export function commandsIn(markdown: string): string[] {
  const found: string[] = []
  const lines = markdown.split('\n')
  const prose: string[] = []
  for (let i = 0; i < lines.length; i++) {
    const fence = /^\s*```(\w*)\s*$/.exec(lines[i] as string)
    if (!fence) {
      prose.push(lines[i] as string)
      continue
    }
    const end = lines.findIndex((l, j) => j > i && l.trim() === '```')
    if (['sh', 'bash', 'shell', ''].includes(fence[1] ?? ''))
      for (const line of lines.slice(i + 1, end)) {
        const command = line.replace(/\s+#.*$/, '').trim()
        if (COMMAND.test(`${command} `)) found.push(command)
      }
    i = end
  }
  // An inline span may wrap onto the next line of its paragraph.
  for (const span of prose.join('\n').matchAll(/`([^`\n]+(?:\n[^`\n]+)?)`/g)) {
    const command = (span[1] as string).replace(/\s*\n\s*/g, ' ').trim()
    if (COMMAND.test(command)) found.push(command)
  }
  return [...new Set(found)]
}

/** Every documented command, each once, with where it is written. */
export function documentedCommands(root = '.'): DocumentedCommand[] {
  const byCommand = new Map<string, string[]>()
  for (const document of DOCUMENTS)
    for (const command of commandsIn(readFileSync(join(root, document), 'utf8')))
      byCommand.set(command, [...(byCommand.get(command) ?? []), document])
  return [...byCommand].map(([command, where]) => ({ command, where }))
}
