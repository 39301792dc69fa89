// Requests as a browser or a script sends them to the Worker, and the pages a 303 leads to.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fromCrossJSON, toJSON } from 'seroval'
import { expect } from 'vitest'
import { TURNSTILE_FIELD } from '../../../app/contact/turnstile'
import type { Enquiry } from '../../support/values'
import type { Site } from './site'

interface PostOptions {
  /** The Origin header; default the site's own. null: none. */
  origin?: string | null
  ip?: string
  headers?: Record<string, string>
}

/** What a browser adds to a form post it navigates with. */
const NAVIGATION = {
  Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'Sec-Fetch-Mode': 'navigate',
  'Sec-Fetch-Site': 'same-origin',
  'Sec-Fetch-Dest': 'document',
}

/** A typed address or a bookmark: the desk's GETs with an effect need this or its own navigation. */
export const TYPED = { 'Sec-Fetch-Site': 'none' } as const

/** `extra`'s own `Sec-Fetch-*` wins over the caller's headers. */
function headersFor(site: Site, options: PostOptions, extra: Record<string, string>): Headers {
  const headers = new Headers(extra)
  const origin = options.origin === undefined ? site.origin : options.origin
  if (origin !== null) headers.set('Origin', origin)
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value)
  for (const [name, value] of Object.entries(extra)) if (/^sec-fetch-/i.test(name)) headers.set(name, value)
  return headers
}

/** A urlencoded post as a browser without JavaScript navigates with it, or (`browser: false`) as a script sends it. */
export function postForm(
  site: Site,
  path: string,
  fields: Record<string, string>,
  options: PostOptions & { browser?: boolean } = {},
): Promise<Response> {
  const base = { 'Content-Type': 'application/x-www-form-urlencoded', ...(options.browser === false ? {} : NAVIGATION) }
  if (options.origin !== undefined && options.origin !== site.origin && options.browser !== false)
    base['Sec-Fetch-Site'] = options.origin === null ? 'none' : 'cross-site'
  return site.fetch(path, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: headersFor(site, options, base),
    ip: options.ip,
  })
}

/** The contact form posted without JavaScript by a client that reads the JSON answer. */
export function postContact(
  site: Site,
  values: Enquiry | Record<string, string>,
  options: PostOptions = {},
): Promise<Response> {
  return postForm(
    site,
    '/api/contact',
    { ...values },
    {
      ...options,
      browser: false,
      headers: { Accept: 'application/json', ...options.headers },
    },
  )
}

/** A server function's id (`/_serverFn/<id>`), read from Start's `createServerRpc({ id, name })` in dist/server/assets (minified). */
export function serverFnId(name: string): string {
  const dir = 'dist/server/assets'
  const call = new RegExp(`id:\\s*["\`]([0-9a-f]{16,})["\`],\\s*name:\\s*["\`]${name}["\`]`)
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const match = call.exec(readFileSync(join(dir, file), 'utf8'))
    if (match?.[1]) return match[1]
  }
  throw new Error(`no server function named ${name} in dist/server (createServerRpc({ id, name }) not found)`)
}

/** A server function's payload as Start's client sends it (seroval's JSON of `{ data }`). */
export function serverFnPayload(data: unknown): string {
  return JSON.stringify(toJSON({ data }))
}

/** Calls a server function with a raw body, as the form's code does (or as a script would). */
function callServerFn(
  site: Site,
  id: string,
  body: string,
  options: PostOptions & { contentType?: string } = {},
): Promise<Response> {
  return site.fetch(`/_serverFn/${id}`, {
    method: 'POST',
    body,
    headers: headersFor(site, options, {
      'Content-Type': options.contentType ?? 'application/json',
      'x-tsr-serverFn': 'true',
    }),
    ip: options.ip,
  })
}

/** The contact form sent with JavaScript: its server function, with the fields it sends. */
export function submitContact(site: Site, fields: object, options: PostOptions = {}): Promise<Response> {
  return callServerFn(
    site,
    serverFnId('submitContact'),
    serverFnPayload({ enquiry_key: crypto.randomUUID(), ...fields }),
    options,
  )
}

/** A server function's result as Start's client reads it (seroval, or plain JSON from the middleware). */
export async function serverFnAnswer(response: Response): Promise<unknown> {
  const body: unknown = await response.json().catch(() => null)
  if (!response.headers.get('x-tss-serialized') || body === null) return body
  const decoded = fromCrossJSON(body as Parameters<typeof fromCrossJSON>[0], { refs: new Map() }) as {
    result?: unknown
  }
  return decoded?.result
}

/** A browser's cookie jar for one site: what Set-Cookie gave, sent back on the next request. */
export class Cookies {
  #jar = new Map<string, string>()

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const at = pair.indexOf('=')
      const name = pair.slice(0, at).trim()
      const value = pair.slice(at + 1)
      if (/;\s*Max-Age=0/i.test(line) || value === '') this.#jar.delete(name)
      else this.#jar.set(name, value)
    }
  }

  header(): Record<string, string> {
    return this.#jar.size ? { Cookie: [...this.#jar].map(([name, value]) => `${name}=${value}`).join('; ') } : {}
  }

  get size(): number {
    return this.#jar.size
  }
}

/** Follows a 303 as a browser does (its cookies kept), and returns the page it leads to. */
export async function follow(
  site: Site,
  response: Response,
  cookies = new Cookies(),
  headers: Record<string, string> = {},
): Promise<Response> {
  if (response.status !== 303 && response.status !== 302) throw new Error(`not a redirect: ${response.status}`)
  cookies.take(response)
  const location = new URL(response.headers.get('location') ?? '', site.origin)
  const page = await site.fetch(`${location.pathname}${location.search}`, {
    headers: { ...headers, ...cookies.header() },
  })
  cookies.take(page)
  return page
}

/** Presses a button as a browser without JavaScript does: its form's fields (`values` typed over them) and its own. */
export function pressButton(
  site: Site,
  document: Document,
  label: string,
  values: Record<string, string> = {},
  options: PostOptions = {},
): Promise<Response> {
  const button = [...document.querySelectorAll('button')].find(
    (b) => (b.textContent ?? '').replace(/\s+/g, ' ').trim() === label,
  )
  const form = button?.closest('form')
  if (!button || !form) throw new Error(`no button "${label}" in a form on the page`)
  const fields: Record<string, string> = {}
  for (const field of form.querySelectorAll('input[name], select[name], textarea[name]')) {
    const name = field.getAttribute('name') as string
    if (field.hasAttribute('disabled')) continue
    const tag = field.tagName.toUpperCase()
    const type = (field.getAttribute('type') ?? '').toLowerCase()
    if (tag === 'INPUT' && ['checkbox', 'radio'].includes(type) && !field.hasAttribute('checked')) continue
    if (tag === 'SELECT') {
      const option = field.querySelector('option[selected]') ?? field.querySelector('option')
      fields[name] = option?.getAttribute('value') ?? option?.textContent ?? ''
    } else if (tag === 'TEXTAREA') fields[name] = field.textContent ?? ''
    else fields[name] = field.getAttribute('value') ?? ''
  }
  const buttonName = button.getAttribute('name')
  if (buttonName) fields[buttonName] = button.getAttribute('value') ?? ''
  const action = form.getAttribute('action') ?? ''
  return postForm(site, action, { ...fields, ...values }, options)
}

/** A link's address on a page, by its text. */
export function linkTo(document: Document, label: string | RegExp): string {
  const links = [...document.querySelectorAll('a[href]')]
  const text = (a: Element) => (a.textContent ?? '').replace(/\s+/g, ' ').trim()
  const link = links.find((a) => (typeof label === 'string' ? text(a) === label : label.test(text(a))))
  if (!link) throw new Error(`no link "${label}" on the page: ${links.map(text).join(' | ').slice(0, 500)}`)
  return link.getAttribute('href') as string
}

/** Waits until the first attempt of `email`'s enquiry ends in `status`; its id. */
export async function settledId(site: Site, email: string, status: string): Promise<string> {
  const row = async () =>
    (await site.sql<{ id: string; status: string }>('SELECT id, status FROM enquiries WHERE email = ?', email))[0]
  await expect.poll(async () => (await row())?.status).toBe(status)
  return (await row())?.id as string
}

/** Sends an enquiry as the form's code does, waits until its first attempt ends in `status`; its id. */
export async function sendEnquiry(site: Site, values: Enquiry, status = 'delivered'): Promise<string> {
  const answer = await submitContact(site, values)
  if (answer.status !== 200) throw new Error(`the enquiry was refused: ${answer.status} ${await answer.text()}`)
  return settledId(site, values.email, status)
}

/** Posts the form as a script-less client does, Turnstile passing unless `held`; waits for `status`; its id. */
export async function postEnquiry(
  site: Site,
  values: Enquiry,
  options: { held?: boolean; ip?: string; status?: string } = {},
): Promise<string> {
  const token = options.held ? {} : { [TURNSTILE_FIELD]: `pass-${crypto.randomUUID()}` }
  const answer = await postContact(site, { ...values, ...token }, { ip: options.ip })
  expect(answer.status, await answer.clone().text()).toBe(200)
  return settledId(site, values.email, options.status ?? (options.held ? 'held' : 'delivered'))
}
