import type { Block, Inline, PageDocument } from '~/content/document'
import { absoluteUrl } from '~/lib/seo'

/** Characters that would otherwise start Markdown syntax inside running text. */
const escapeText = (text: string) => text.replace(/([\\`*_[\]<>])/g, '\\$1')

/** A link target: a site path on the canonical origin, an anchor on the page, or as given. */
function href(target: string, pagePath: string): string {
  if (target.startsWith('#')) return `${absoluteUrl(pagePath)}${target}`
  if (target.startsWith('/')) return absoluteUrl(target)
  return target
}

function inline(parts: Inline | readonly Inline[], pagePath: string): string {
  return (Array.isArray(parts) ? parts : [parts])
    .map((part: Inline) =>
      typeof part === 'string' ? escapeText(part) : `[${escapeText(part.text)}](${href(part.href, pagePath)})`,
    )
    .join('')
}

function block(b: Block, pagePath: string): string {
  switch (b.kind) {
    case 'heading':
      return `${'#'.repeat(b.level)} ${inline(b.text, pagePath)}`
    case 'paragraph': {
      const text = inline(b.text, pagePath)
      return b.emphasis ? `*${text}*` : text
    }
    case 'list':
      return b.items.map((item, i) => `${b.ordered ? `${i + 1}.` : '-'} ${inline(item, pagePath)}`).join('\n')
    case 'image':
      return `![${escapeText(b.image.alt)}](${absoluteUrl(b.image.src)})`
  }
}

/** CommonMark: one block per paragraph, ending with a newline. */
export function toMarkdown(doc: PageDocument & { path: string }): string {
  return `${doc.blocks.map((b) => block(b, doc.path)).join('\n\n')}\n`
}
