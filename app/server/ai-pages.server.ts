import { type PagePath, pageDocument, pages } from '~/content/pages'
import { llmsFullTxt, llmsTxt } from '~/lib/llms-txt'
import { toMarkdown } from '~/lib/markdown'
import { absoluteUrl, markdownPath } from '~/lib/seo'
import { markdownTokens, prefersMarkdown } from './negotiation'

/** No nonce and nothing to run, so, unlike pages, public and cacheable for an hour, like the sitemap. */
export const MACHINE_READABLE_CACHE_CONTROL = 'public, max-age=3600'

const texts = new Map<string, Promise<string>>()

/** Made once an isolate; a failed make is forgotten, so the next request tries again. */
function memo(key: string, make: () => string | Promise<string>): Promise<string> {
  let text = texts.get(key)
  if (text === undefined) {
    text = Promise.resolve().then(make)
    text.catch(() => texts.delete(key))
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

const twinOf = (path: PagePath) => memo(path, async () => toMarkdown(await pageDocument(path)))

/** `Link: rel="canonical"` so a search engine counts the twin as the page's, not a copy. */
async function twinAnswer(request: Request, path: PagePath, extra: Record<string, string> = {}): Promise<Response> {
  const markdown = await twinOf(path)
  return textAnswer(request, markdown, {
    'Content-Type': 'text/markdown; charset=utf-8',
    'x-markdown-tokens': String(markdownTokens(markdown)),
    Link: `<${absoluteUrl(path)}>; rel="canonical"`,
    ...extra,
  })
}

export function markdownTwin(request: Request): Promise<Response> | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null
  const path = twins.get(new URL(request.url).pathname)
  return path ? twinAnswer(request, path) : null
}

const pagePaths = new Set<string>(pages.map((page) => page.path))

export function negotiablePage(request: Request): PagePath | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null
  const { pathname } = new URL(request.url)
  return pagePaths.has(pathname) ? (pathname as PagePath) : null
}

/** `Vary: Accept` on both representations, so a cache keeps them apart; made before the Worker's page cache. */
export function negotiatedTwin(request: Request, path: PagePath): Promise<Response> | null {
  return prefersMarkdown(request.headers.get('Accept')) ? twinAnswer(request, path, { Vary: 'Accept' }) : null
}

/** /llms.txt: the site in a paragraph, and each page's twin with a line about it. */
export async function llmsTxtAnswer(request: Request): Promise<Response> {
  return textAnswer(request, await memo('llms.txt', llmsTxt), { 'Content-Type': 'text/plain; charset=utf-8' })
}

export async function llmsFullTxtAnswer(request: Request): Promise<Response> {
  return textAnswer(request, await memo('llms-full.txt', llmsFullTxt), { 'Content-Type': 'text/plain; charset=utf-8' })
}
