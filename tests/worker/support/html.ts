import { Window } from 'happy-dom'
import {
  CONTACT_FIELDS,
  type ContactField,
  type ContactValues,
  ENQUIRY_FIELDS,
  type FieldKind,
} from '../../../app/ledger/fields'

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
  // A <wbr> is a place a line may break, not a space.
  const read = (node: Node): string =>
    node.nodeType === 3
      ? (node.textContent ?? '')
      : node.nodeType === 1 && (node as Element).localName !== 'wbr'
        ? ` ${[...node.childNodes].map(read).join('')} `
        : ''
  return element ? read(element).replace(/\s+/g, ' ').trim() : ''
}

/** The contact form's fields as a page shows them: the values the server rendered into it. */
export function contactFields(document: Document): ContactValues {
  const shown = (field: ContactField): string => {
    const kind: FieldKind = ENQUIRY_FIELDS[field].kind
    if (kind === 'choice')
      return document.querySelector(`select[name="${field}"] option[selected]`)?.getAttribute('value') ?? ''
    if (kind === 'long-text') return document.querySelector(`textarea[name="${field}"]`)?.textContent ?? ''
    return document.querySelector(`[name="${field}"]`)?.getAttribute('value') ?? ''
  }
  return Object.fromEntries(CONTACT_FIELDS.map((field) => [field, shown(field)])) as ContactValues
}

/** The contact form's status line, as a page shows it. */
export const contactStatus = (document: Document): string => textOf(document.querySelector('#contact-status'))
