// The icon sprite: one SVG file with a <symbol> per icon the site draws (ICON_NAMES in
// app/content/types.ts), drawn from lucide-react's own icon data, so no icon's drawing is in any
// script (app/document/page-symbols.server.ts says how pages get the symbols). `npm run icons` writes it
// to app/document/icons.svg; tests/unit/icon.test.tsx fails when the committed file no longer
// matches the names or lucide.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { ICON_ID_PREFIX, ICON_NAMES } from '../app/content/types.ts'
import { escapeXml } from './brand-assets.ts'

/** Relative to the project's root, where npm runs scripts and tests. */
export const SPRITE_FILE = 'app/document/icons.svg'

type IconNode = [tag: string, attributes: Record<string, string | number>][]

/**
 * lucide's drawing of one icon: its elements, as lucide-react renders them. A renamed icon's file
 * only re-exports the new one (`export { default } from './new-name.mjs'`), which is followed.
 */
async function iconNode(name: string): Promise<IconNode> {
  const file = `lucide-react/dist/esm/icons/${name}.mjs`
  const module = (await import(file)) as { __iconData?: { node: IconNode } }
  if (module.__iconData) return module.__iconData.node
  const source = readFileSync(fileURLToPath(import.meta.resolve(file)), 'utf8')
  const renamed = source.match(/export \{ default \} from '\.\/([\w-]+)\.mjs'/)?.[1]
  if (!renamed) throw new Error(`lucide-react has no icon data for "${name}"`)
  return iconNode(renamed)
}

export async function iconSprite(): Promise<string> {
  const symbols: string[] = []
  for (const name of ICON_NAMES) {
    const elements = (await iconNode(name)).map(([tag, attributes]) => {
      const attrs = Object.entries(attributes)
        .filter(([key]) => key !== 'key')
        .map(([key, value]) => ` ${key}="${escapeXml(String(value))}"`)
        .join('')
      return `<${tag}${attrs}/>`
    })
    symbols.push(`<symbol id="${ICON_ID_PREFIX}${name}" viewBox="0 0 24 24">${elements.join('')}</symbol>`)
  }
  return `<svg xmlns="http://www.w3.org/2000/svg">\n${symbols.join('\n')}\n</svg>\n`
}

if (process.argv.includes('--write')) {
  writeFileSync(SPRITE_FILE, await iconSprite())
  console.log(`Wrote ${SPRITE_FILE} (${ICON_NAMES.length} icons).`)
}
