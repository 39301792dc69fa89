/**
 * What a page's <main> says as a reader hears it: text, alt text, a drawing's or an icon link's label;
 * never what is hidden, nor a `<form>` (the Markdown twin links to the form).
 */
export interface MainContent {
  text: string
  headings: { level: number; text: string }[]
  links: { text: string; href: string }[]
  /** The text of each list item that is not a card (a card holds a heading) nor a breadcrumb step. */
  listItems: string[]
}

/** Reads a page's <main> from the server's parsed HTML, as a crawler does (DOM only, no layout). */
export function mainContent(document: Document): MainContent {
  const main = document.querySelector('main')
  if (!main) throw new Error('no <main>')
  const isElement = (node: Node): node is Element => node.nodeType === 1
  const skipped = (el: Element) =>
    el.getAttribute('aria-hidden') === 'true' ||
    el.hasAttribute('hidden') ||
    ['SCRIPT', 'STYLE', 'TEMPLATE', 'FORM'].includes(el.tagName.toUpperCase())
  const read = (node: Node): string => {
    if (node.nodeType === 3) return node.textContent ?? ''
    if (!isElement(node) || skipped(node)) return ''
    const tag = node.tagName.toUpperCase()
    // A place a line may break, not a space (an address wraps after its @).
    if (tag === 'WBR') return ''
    if (tag === 'IMG') return ` ${node.getAttribute('alt') ?? ''} `
    if (tag === 'SVG') return node.getAttribute('role') === 'img' ? ` ${node.getAttribute('aria-label') ?? ''} ` : ''
    const inner = [...node.childNodes].map(read).join('')
    if (inner.trim() === '' && node.hasAttribute('aria-label') && ['A', 'BUTTON'].includes(tag))
      return ` ${node.getAttribute('aria-label')} `
    // Each element apart from its neighbours: two blocks' words never run together.
    return ` ${inner} `
  }
  const clean = (text: string) => text.replace(/\s+/g, ' ').trim()
  const visible = (el: Element) => !el.closest('form, [aria-hidden="true"], [hidden]')
  return {
    text: clean(read(main)),
    headings: [...main.querySelectorAll('h1, h2, h3, h4, h5, h6')]
      .filter(visible)
      .map((el) => ({ level: Number(el.tagName.slice(1)), text: clean(read(el)) })),
    links: [...main.querySelectorAll('a[href]')]
      .filter(visible)
      .map((el) => ({ text: clean(read(el)), href: el.getAttribute('href') ?? '' })),
    listItems: [...main.querySelectorAll('li')]
      .filter(
        (el) =>
          visible(el) && !el.querySelector('h1, h2, h3, h4, h5, h6') && !el.closest('nav[aria-label="Breadcrumb"]'),
      )
      .map((el) => clean(read(el))),
  }
}

/** The words of a text, lower case, for comparing two texts that may punctuate differently. */
export function words(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[’‘]/g, "'")
      .match(/[\p{L}\p{N}]+(?:['.@][\p{L}\p{N}]+)*/gu) ?? []
  )
}

/** Markdown as a reader sees it: link and image syntax, emphasis, escapes and markers gone. */
export function markdownPlainText(markdown: string): string {
  return markdown
    .replace(/!\[((?:\\.|[^\]])*)\]\([^)]*\)/g, ' $1 ')
    .replace(/\[((?:\\.|[^\]])*)\]\([^)]*\)/g, ' $1 ')
    .replace(/^#{1,6} /gm, '')
    .replace(/^(?:- |\d+\. )/gm, '')
    .replace(/\\([\\`*_[\]<>])/g, '$1')
    .replace(/(^|\s)\*(\S[^*]*\S|\S)\*(?=\s|$)/g, '$1$2')
}

/** The words each side has that the other lacks, counting repeats. */
export function wordDifference(a: string[], b: string[]): { onlyInA: string[]; onlyInB: string[] } {
  const counts = new Map<string, number>()
  for (const word of a) counts.set(word, (counts.get(word) ?? 0) + 1)
  for (const word of b) counts.set(word, (counts.get(word) ?? 0) - 1)
  const onlyInA: string[] = []
  const onlyInB: string[] = []
  for (const [word, count] of counts) {
    for (let i = 0; i < count; i++) onlyInA.push(word)
    for (let i = 0; i < -count; i++) onlyInB.push(word)
  }
  return { onlyInA, onlyInB }
}
