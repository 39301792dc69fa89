import { type PagePath, pages } from '~/content/pages'
import { llmsFullTxt, llmsTxt } from '~/lib/llms-txt'
import { toMarkdown } from '~/lib/markdown'
import { pageDocument } from '~/lib/page-documents'
import { absoluteUrl, markdownPath } from '~/lib/seo'

/**
 * /llms.txt, /llms-full.txt and each public page's Markdown twin (its path with `.md`; the home
 * page's is /index.html.md). The same for every visitor and with nothing to run, so, unlike pages
 * (whose CSP nonce must not outlive a deploy's chunks), public and cacheable for an hour, like the
 * sitemap; the Worker makes each text once per isolate.
 */
export const MACHINE_READABLE_CACHE_CONTROL = 'public, max-age=3600'

const texts = new Map<string, string>()

function memo(key: string, make: () => string): string {
  let text = texts.get(key)
  if (text === undefined) {
    text = make()
    texts.set(key, text)
  }
  return text
}

const twins = new Map<string, PagePath>(pages.map((page) => [markdownPath(page.path), page.path]))

function textAnswer(request: Request, body: string, headers: Record<string, string>): Response {
  return new Response(request.method === 'HEAD' ? null : body, {
    status: 200,
    headers: { 'Cache-Control': MACHINE_READABLE_CACHE_CONTROL, ...headers },
  })
}

/** `text/markdown` (RFC 7763), with `Link: rel="canonical"` naming the page, so a search engine counts the twin as the page's. */
export function markdownTwin(request: Request): Response | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null
  const path = twins.get(new URL(request.url).pathname)
  if (!path) return null
  const markdown = memo(path, () => toMarkdown(pageDocument(path)))
  return textAnswer(request, markdown, {
    'Content-Type': 'text/markdown; charset=utf-8',
    Link: `<${absoluteUrl(path)}>; rel="canonical"`,
  })
}

/** /llms.txt: the site in a paragraph, and each page's twin with a line about it. */
export function llmsTxtAnswer(request: Request): Response {
  return textAnswer(request, memo('llms.txt', llmsTxt), { 'Content-Type': 'text/plain; charset=utf-8' })
}

/** /llms-full.txt: every public page's text in one file. */
export function llmsFullTxtAnswer(request: Request): Response {
  return textAnswer(request, memo('llms-full.txt', llmsFullTxt), { 'Content-Type': 'text/plain; charset=utf-8' })
}
