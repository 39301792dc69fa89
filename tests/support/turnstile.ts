/**
 * Stand-ins for Cloudflare Turnstile, for the end-to-end tests:
 * - siteverify, on 127.0.0.1 (the site's TURNSTILE_VERIFY_URL): a token beginning `pass-` passes
 *   (action `contact`), any other fails, and `down()` makes it answer 503, as an outage would;
 * - the widget's script, answered by the browser's request routing at its real address (so the
 *   page's CSP is what allows or blocks it): it renders a marker and hands over the token it is given.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page, Request } from '@playwright/test'

export const TEST_TURNSTILE_SITE_KEY = '1x00000000000000000000AA'
export const TEST_TURNSTILE_SECRET = 'e2e-turnstile-secret-7d41c0'
export const TURNSTILE_SCRIPT_PATTERN = 'https://challenges.cloudflare.com/turnstile/**'

export interface SiteverifyCall {
  secret: string
  response: string
  remoteip: string | null
}

export interface Siteverify {
  url: string
  calls(): SiteverifyCall[]
  down(isDown: boolean): void
  close(): Promise<void>
}

export async function startSiteverify(): Promise<Siteverify> {
  const calls: SiteverifyCall[] = []
  let isDown = false
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString()
    })
    req.on('end', () => {
      if (isDown) {
        res.writeHead(503).end('unavailable')
        return
      }
      const form = parseForm(body, req.headers['content-type'] ?? '')
      const call = { secret: form.secret ?? '', response: form.response ?? '', remoteip: form.remoteip ?? null }
      calls.push(call)
      const pass = call.secret === TEST_TURNSTILE_SECRET && call.response.startsWith('pass-')
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify(
          pass
            ? { success: true, action: 'contact', hostname: 'localhost', 'error-codes': [] }
            : { success: false, 'error-codes': ['invalid-input-response'] },
        ),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/siteverify`,
    calls: () => [...calls],
    down: (value) => {
      isDown = value
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** The fields of a multipart or urlencoded body (siteverify accepts both). */
function parseForm(body: string, contentType: string): Record<string, string> {
  const fields: Record<string, string> = {}
  const boundary = contentType.match(/boundary=(?:"([^"]+)"|([^;]+))/)
  if (boundary) {
    for (const part of body.split(`--${boundary[1] ?? boundary[2]}`)) {
      const match = part.match(/name="([^"]+)"\r\n\r\n([\s\S]*?)\r\n$/)
      if (match?.[1]) fields[match[1]] = match[2] ?? ''
    }
    return fields
  }
  for (const [key, value] of new URLSearchParams(body)) fields[key] = value
  return fields
}

/**
 * Answers the widget's script with a stand-in that hands over `token` once rendered (and a fresh
 * one after each reset). Returns the script requests the page made, to check when it was asked for.
 */
export async function routeTurnstileWidget(page: Page, token: string): Promise<Request[]> {
  const requests: Request[] = []
  await page.route(TURNSTILE_SCRIPT_PATTERN, async (route) => {
    requests.push(route.request())
    await route.fulfill({
      contentType: 'text/javascript',
      body: `window.turnstile = {
  render(element, options) {
    element.setAttribute('data-widget', options.sitekey + ' ' + options.action)
    this.options = options
    setTimeout(() => options.callback(${JSON.stringify(token)}), 50)
    return 'stand-in-widget'
  },
  reset() {
    setTimeout(() => this.options.callback(${JSON.stringify(token)}), 50)
  },
}`,
    })
  })
  return requests
}
