// The blocks of a page's Markdown twin, for the builders beside the content modules. Free of
// imports, so the page list can name its type without a circle.

export interface Link {
  text: string
  href: string
}

export type Inline = string | Link

/** An illustration as the twin writes it: `![alt](src)`. */
export interface Image {
  src: string
  alt: string
}

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; text: Inline }
  | { kind: 'paragraph'; text: readonly Inline[]; emphasis?: boolean }
  | { kind: 'list'; ordered?: boolean; items: readonly (readonly Inline[])[] }
  | { kind: 'image'; image: Image }

/** A page's words as its Markdown twin holds them; the page list adds its path. */
export interface PageDocument {
  heading: string
  cardLine: string
  blocks: readonly Block[]
}

export const h = (level: 1 | 2 | 3, text: Inline): Block => ({ kind: 'heading', level, text })
export const p = (...text: Inline[]): Block => ({ kind: 'paragraph', text })
export const em = (text: string): Block => ({ kind: 'paragraph', text: [text], emphasis: true })
export const ul = (items: readonly (string | readonly Inline[])[]): Block => ({
  kind: 'list',
  items: items.map((item) => (typeof item === 'string' ? [item] : item)),
})
export const img = ({ src, alt }: Image): Block => ({ kind: 'image', image: { src, alt } })
export const link = (text: string, href: string): Link => ({ text, href })

export function section(
  title: string,
  body: readonly Block[],
  options: { eyebrow?: string; intro?: string } = {},
): Block[] {
  return [
    ...(options.eyebrow ? [p(options.eyebrow)] : []),
    h(2, title),
    ...(options.intro ? [p(options.intro)] : []),
    ...body,
  ]
}

export function cards(items: readonly { title: string; description: string; badge?: string }[]): Block[] {
  return items.flatMap((card) => [h(3, card.title), ...(card.badge ? [em(card.badge)] : []), p(card.description)])
}

export function features(items: readonly (string | { label: string; badge?: string })[]): Block {
  return ul(
    items.map((entry) => {
      const item = typeof entry === 'string' ? { label: entry } : entry
      return item.badge ? `${item.label} (${item.badge})` : item.label
    }),
  )
}

export function contactLink(label: string, subject?: string): Block {
  return p(link(label, subject ? `/contact?subject=${subject}` : '/contact'))
}

export function callToAction(cta: { title: string; text: string }, action: Block): Block[] {
  return [h(2, cta.title), p(cta.text), action]
}
