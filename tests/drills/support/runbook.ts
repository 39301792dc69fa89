/**
 * The command blocks of the runbook (docs/operations/, one page per procedure), as the drills run
 * them. A block the drills run is marked just above its fence:
 *
 *   <!-- drill: key-rotation/secret-put -->
 *   ```sh
 *   npx wrangler secret put CONTACT_FORM_ACCESS_KEY
 *   ```
 *
 * `runbookBlock(id, values)` returns the block exactly as written, with each `<placeholder>` (a
 * word group in angle brackets, like `<version id>`) replaced by the drill's value; a placeholder
 * left without a value is an error, so a drill cannot run a block the operator could not.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { REPO } from './project'

export const RUNBOOK_DIR = 'docs/operations'

/** The runbook's pages, each with its text, in file-name order. */
export function runbookPages(root = REPO): { file: string; text: string }[] {
  return readdirSync(join(root, RUNBOOK_DIR))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => ({ file: `${RUNBOOK_DIR}/${f}`, text: readFileSync(join(root, RUNBOOK_DIR, f), 'utf8') }))
}

/** The whole runbook as one text: its pages one after another. */
export const runbookText = (root = REPO) =>
  runbookPages(root)
    .map((p) => p.text)
    .join('\n')

export interface Block {
  id: string
  lang: string
  text: string
  /** The `# N. Title` procedure (the page's title) the block is in. */
  section: string
}

const PLACEHOLDER = /<([a-z][a-z0-9 ._-]*)>/g

/** Every fenced block of the runbook, with its drill id when it is marked. */
export function runbookBlocks(markdown = runbookText()): (Block & { marked: boolean })[] {
  const blocks: (Block & { marked: boolean })[] = []
  const lines = markdown.split('\n')
  let section = ''
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    if (line.startsWith('# ')) section = line.slice(2).trim()
    const fence = /^(\s*)```(\w*)\s*$/.exec(line)
    if (!fence) continue
    const end = lines.findIndex((l, j) => j > i && l.trim() === '```')
    const indent = fence[1]?.length ?? 0
    const text = lines
      .slice(i + 1, end)
      .map((l) => l.slice(indent))
      .join('\n')
    const marker = /<!-- drill: ([\w/-]+) -->/.exec(lines[i - 1] ?? '')
    blocks.push({ id: marker?.[1] ?? '', lang: fence[2] ?? '', text, section, marked: !!marker })
    i = end
  }
  return blocks
}

export function runbookBlock(id: string, values: Record<string, string> = {}): string {
  const block = runbookBlocks().find((b) => b.id === id)
  if (!block) throw new Error(`${RUNBOOK_DIR}/ has no block marked <!-- drill: ${id} -->`)
  const missing = new Set<string>()
  const text = block.text.replace(PLACEHOLDER, (whole, name: string) => {
    if (name in values) return values[name] as string
    missing.add(whole)
    return whole
  })
  if (missing.size > 0) throw new Error(`runbook block ${id}: no value for ${[...missing].join(', ')}`)
  return text
}

export function placeholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1] as string)
}
