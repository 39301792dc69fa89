import { type PagePath, pages } from '~/content/pages'
import { llmsFullTxt, llmsTxt } from '~/lib/llms-txt'
import { toMarkdown } from '~/lib/markdown'
import { pageDocument } from '~/lib/page-documents'
import { absoluteUrl, markdownPath } from '~/lib/seo'
import { markdownTokens, prefersMarkdown } from './negotiation'

/**
 * The answers made for assistants and search engines: /llms.txt, /llms-full.txt and each public
 * page's Markdown twin (its path with `.md` appended; /index.html.md for the home page).
 *
 * They are the same for every visitor and hold nothing to run, so unlike the pages (which carry a
 * per-response CSP nonce and must not outlive a deploy's script chunks) they are public and
 * cacheable: an hour in a browser or any shared cache, the same as the sitemap and robots.txt,
 * which bounds how long one may lag behind a deploy. Nothing at the edge stores a Worker's answer
 * unless asked, so this is for browsers, crawlers and proxies; the Worker itself makes each text
 * once per isolate (they depend only on the deployed content) and serves it from memory.
 * The security headers (a CSP of `default-src 'none'` for non-HTML answers) are added by the
 * request middleware, as for every answer.
 */
export const MACHINE_READABLE_CACHE_CONTROL = 'public, max-age=3600'

const texts = new Map<string, string>()

/** A text made once per isolate. */
function memo(key: string, make: () => string): string {
  let text = texts.get(key)
  if (text === undefined) {
    text = make()
    texts.set(key, text)
  }
  return text
}

/** The page whose twin is at `pathname`, if any. */
const twins = new Map<string, PagePath>(pages.map((page) => [markdownPath(page.path), page.path]))

function textAnswer(request: Request, body: string, headers: Record<string, string>): Response {
  return new Response(request.method === 'HEAD' ? null : body, {
    status: 200,
    headers: { 'Cache-Control': MACHINE_READABLE_CACHE_CONTROL, ...headers },
  })
}

/** A page's Markdown twin, made once per isolate. */
const twinOf = (path: PagePath) => memo(path, () => toMarkdown(pageDocument(path)))

/**
 * `Content-Type: text/markdown` (RFC 7763), the token estimate Cloudflare's own conversion sends,
 * and a `Link: rel="canonical"` header naming the page, so a search engine that finds the twin
 * counts it as the page's, not as a copy of it.
 */
function twinAnswer(request: Request, path: PagePath, extra: Record<string, string> = {}): Response {
  const markdown = twinOf(path)
  return textAnswer(request, markdown, {
    'Content-Type': 'text/markdown; charset=utf-8',
    'x-markdown-tokens': String(markdownTokens(markdown)),
    Link: `<${absoluteUrl(path)}>; rel="canonical"`,
    ...extra,
  })
}

/** The Markdown twin a GET or HEAD request asks for by its own address (`/about.md`), or null. */
export function markdownTwin(request: Request): Response | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null
  const path = twins.get(new URL(request.url).pathname)
  return path ? twinAnswer(request, path) : null
}

const pagePaths = new Set<string>(pages.map((page) => page.path))

/** The public page at this request's path, for a GET or HEAD, or null. */
export function negotiablePage(request: Request): PagePath | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null
  const { pathname } = new URL(request.url)
  return pagePaths.has(pathname) ? (pathname as PagePath) : null
}

/**
 * A public page asked for with an `Accept` header that prefers Markdown (app/server/negotiation.ts)
 * gets its twin at the page's own address. Both representations carry `Vary: Accept`, so a cache
 * in the path keeps them apart; the Worker's page cache never sees this answer, which is made
 * before it.
 */
export function negotiatedTwin(request: Request, path: PagePath): Response | null {
  return prefersMarkdown(request.headers.get('Accept')) ? twinAnswer(request, path, { Vary: 'Accept' }) : null
}

/** /llms.txt: the site in a paragraph, and each page's twin with a line about it. */
export function llmsTxtAnswer(request: Request): Response {
  return textAnswer(request, memo('llms.txt', llmsTxt), { 'Content-Type': 'text/plain; charset=utf-8' })
}

/** /llms-full.txt: every public page's text in one file. */
export function llmsFullTxtAnswer(request: Request): Response {
  return textAnswer(request, memo('llms-full.txt', llmsFullTxt), { 'Content-Type': 'text/plain; charset=utf-8' })
}
