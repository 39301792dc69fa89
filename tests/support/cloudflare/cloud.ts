/**
 * The stand-in Cloudflare, with as many accounts as its clients ask for: one REST API for all of
 * them (an account's calls are told apart by the account id in the path, or by the token), and for
 * each account its own edge (an HTTPS proxy serving that account's workers.dev and custom domains)
 * and its own runtime (one workerd, holding its databases and running its builds). Run as one
 * process for every drill (tests/drills/support/standin.ts), or inside a test's process (index.ts, startCloudflare).
 * README.md says what it serves and what it guesses.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSecureContext, type SecureContext } from 'node:tls'
import { handleApi } from './api/index.ts'
import { AccountHost } from './host.ts'
import { readBody, sendJson } from './http.ts'
import { type CertificateAuthority, createAuthority } from './tls.ts'
import type { AccountOptions } from './types.ts'

export { OUTBOUND_URL_HEADER } from './host.ts'

/** What a client needs to use one account. */
export interface AccountInfo {
  accountId: string
  tokens: Record<string, string>
  subdomain: string | undefined
  apiUrl: string
  proxyUrl: string
  caFile: string
  caPem: string
  env: Record<string, string>
}

/** Every account, the API they share, and the certificate authority of their edges. */
export class Cloud {
  readonly dir: string
  readonly authority: CertificateAuthority
  private readonly accounts = new Map<string, AccountHost>()
  private readonly contexts = new Map<string, SecureContext>()
  private readonly api = createServer((req, res) => {
    this.handle(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(String((error as Error).stack ?? error))
    })
  })
  apiBase = ''
  private childTmp = ''

  constructor(dir: string) {
    this.dir = dir
    this.authority = createAuthority(join(dir, 'tls'))
  }

  contextFor(names: string[]): SecureContext {
    const key = names.join(',')
    let context = this.contexts.get(key)
    if (!context) {
      context = createSecureContext(this.authority.issue(names))
      this.contexts.set(key, context)
    }
    return context
  }

  account(id: string): AccountHost {
    const host = this.accounts.get(id)
    if (!host) throw new Error(`The stand-in has no account ${id}`)
    return host
  }

  async start(): Promise<void> {
    // The API never closes an idle keep-alive connection itself (Node's default closes it after
    // 5 s): wrangler's fetch reuses idle sockets, and on a busy machine it can pick one up just as
    // a server closes it, which fails that call with "fetch failed". Clients close them.
    this.api.keepAliveTimeout = 0
    await new Promise<void>((resolve) => this.api.listen(0, '127.0.0.1', () => resolve()))
    this.apiBase = `http://127.0.0.1:${(this.api.address() as AddressInfo).port}`
    // wrangler checks npm for a newer version of itself, with a cache in os.tmpdir(). Children get a
    // TMPDIR whose cache says the pinned version is the latest, so no run reaches the registry (an
    // update check is no part of any procedure, and the tests run offline).
    this.childTmp = join(this.dir, 'tmp')
    mkdirSync(join(this.childTmp, 'update-check'), { recursive: true })
    const wranglerVersion = (
      JSON.parse(readFileSync(new URL('../../../node_modules/wrangler/package.json', import.meta.url), 'utf8')) as {
        version: string
      }
    ).version
    writeFileSync(
      join(this.childTmp, 'update-check', 'wrangler-latest.json'),
      JSON.stringify({ latest: wranglerVersion, lastUpdate: Date.now() + 365 * 24 * 3600 * 1000 }),
    )
  }

  /** The environment every child needs, whatever its account. */
  childEnv(): Record<string, string> {
    return {
      TMPDIR: this.childTmp,
      NO_PROXY: '127.0.0.1,localhost,::1',
      NODE_USE_ENV_PROXY: '1',
      NODE_EXTRA_CA_CERTS: this.authority.caFile,
      // curl, as the runbook's checks use it (`curl -s https://<domain>/api/health`).
      CURL_CA_BUNDLE: this.authority.caFile,
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      WRANGLER_SEND_METRICS: 'false',
    }
  }

  async createAccount(options: AccountOptions): Promise<AccountHost> {
    const host = new AccountHost(this, options)
    if (this.accounts.has(host.accountId)) throw new Error(`account ${host.accountId} exists already`)
    await host.startEdge()
    this.accounts.set(host.accountId, host)
    return host
  }

  async removeAccount(id: string): Promise<void> {
    const host = this.accounts.get(id)
    if (!host) return
    this.accounts.delete(id)
    await host.stop()
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in')
    if (url.pathname.startsWith('/__standin/')) return this.control(req, res, url)
    const accountInPath = /^\/client\/v4\/accounts\/([^/]+)/.exec(url.pathname)?.[1]
    let host: AccountHost | undefined
    if (accountInPath) {
      host = this.accounts.get(accountInPath)
      if (!host) {
        return sendJson(res, 403, {
          success: false,
          errors: [{ code: 9109, message: 'Unauthorized to access requested resource' }],
          messages: [],
          result: null,
        })
      }
    } else {
      const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '')
      host = [...this.accounts.values()].find((a) => a.tokens.has(token))
      if (!host) {
        return sendJson(res, 400, {
          success: false,
          errors: [{ code: 10000, message: 'Authentication error' }],
          messages: [],
          result: null,
        })
      }
    }
    await handleApi(req, res, host.apiContext())
  }

  /** The clients' door: accounts made and removed, and each account's state and controls. */
  private async control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const upload = /^\/__standin\/d1-upload\/([^/]+)$/.exec(url.pathname)
    if (upload) {
      const owner = [...this.accounts.values()].find((a) => a.account.d1Uploads.has(upload[1] ?? ''))
      if (!owner) return sendJson(res, 404, { error: 'unknown upload' })
      return handleApi(req, res, owner.apiContext())
    }
    const body = await readBody(req)
    const input = body.length > 0 ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : {}
    try {
      if (req.method === 'POST' && url.pathname === '/__standin/accounts') {
        const host = await this.createAccount(input as AccountOptions)
        return sendJson(res, 200, host.info())
      }
      const call = /^\/__standin\/accounts\/([^/]+)(?:\/call)?$/.exec(url.pathname)
      if (call && req.method === 'DELETE') {
        await this.removeAccount(call[1] as string)
        return sendJson(res, 200, { ok: true })
      }
      if (call && req.method === 'POST') {
        const host = this.account(call[1] as string)
        const fn = host.calls[String(input.method)]
        if (!fn) return sendJson(res, 404, { error: `no call ${input.method}` })
        const result = await (fn as (...args: unknown[]) => unknown)(...((input.args as unknown[]) ?? []))
        return sendJson(res, 200, { result: result ?? null })
      }
      return sendJson(res, 404, { error: `no control path ${req.method} ${url.pathname}` })
    } catch (error) {
      return sendJson(res, 500, { error: (error as Error).message })
    }
  }

  async stop(): Promise<void> {
    for (const id of [...this.accounts.keys()]) await this.removeAccount(id)
    this.api.closeAllConnections()
    await new Promise<void>((resolve) => this.api.close(() => resolve()))
    rmSync(this.dir, { recursive: true, force: true })
  }
}

export async function startCloud(): Promise<Cloud> {
  const cloud = new Cloud(mkdtempSync(join(tmpdir(), 'cloudflare-standin-')))
  await cloud.start()
  return cloud
}
