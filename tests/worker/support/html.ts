import { Window } from 'happy-dom'

/**
 * An HTML answer as a document to query (happy-dom's parser; no script runs, as for a browser
 * without JavaScript or a crawler).
 */
export function parseHtml(html: string): Document {
  const window = new Window({ settings: { disableJavaScriptEvaluation: true, disableCSSFileLoading: true } })
  return new window.DOMParser().parseFromString(html, 'text/html') as unknown as Document
}

/** The page a path answers, parsed. */
export async function pageAt(
  fetch: (path: string, init?: RequestInit) => Promise<Response>,
  path: string,
  init?: RequestInit,
) {
  const response = await fetch(path, init)
  const html = await response.text()
  return { response, html, document: parseHtml(html) }
}

/** An element's text with its whitespace collapsed, as a reader hears it. */
export const textOf = (element: Element | null | undefined): string =>
  (element?.textContent ?? '').replace(/\s+/g, ' ').trim()

/** JSON-LD blocks of a page. */
export function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1] ?? 'null') as Record<string, unknown>,
  )
}

/**
 * An element's text with each child element set apart by a space, as a browser's innerText sets
 * block boxes apart on lines of their own (whitespace then collapsed).
 */
export function spacedText(element: Element | null | undefined): string {
  const read = (node: Node): string =>
    node.nodeType === 3
      ? (node.textContent ?? '')
      : node.nodeType === 1
        ? ` ${[...node.childNodes].map(read).join('')} `
        : ''
  return element ? read(element).replace(/\s+/g, ' ').trim() : ''
}

/** The contact form's fields as a page shows them: the values the server rendered into it. */
export function contactFields(
  document: Document,
): Record<'name' | 'email' | 'company' | 'subject' | 'message', string> {
  const value = (name: string) => document.querySelector(`[name="${name}"]`)?.getAttribute('value') ?? ''
  return {
    name: value('name'),
    email: value('email'),
    company: value('company'),
    subject: document.querySelector('select[name="subject"] option[selected]')?.getAttribute('value') ?? '',
    message: document.querySelector('textarea[name="message"]')?.textContent ?? '',
  }
}

/** The contact form's status line, as a page shows it. */
export const contactStatus = (document: Document): string => textOf(document.querySelector('#contact-status'))
