/**
 * A stand-in for Cloudflare Access's key server, on 127.0.0.1 only: it serves a JWKS (as
 * `https://<team>.cloudflareaccess.com/cdn-cgi/access/certs` does) and signs RS256 tokens the way
 * Access does, for tests and for opening the inbox locally (`npm run admin-token`).
 *
 * GET /cdn-cgi/access/certs   the public keys ({ keys: [...] })
 * GET /__health               200 when up
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose'

export const TEST_TEAM_DOMAIN = 'akshara-test.cloudflareaccess.com'
export const TEST_ACCESS_AUD = '4714c1358e65fe4b408ad6d432a5f878f08194bdb4752441fd56faefa9b2b6f2'
export const TEST_OPERATOR = 'operator@aksharalabs.in'

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey']

export interface TokenOptions {
  email?: string | null
  aud?: string
  iss?: string
  /** Seconds from now; negative for an expired token. Default one hour. */
  expiresIn?: number
  /** Seconds from now until the token is valid (nbf). Default: valid now. */
  notBeforeIn?: number
  /** Sign with a key the server does not publish. */
  foreignKey?: boolean
  extra?: JWTPayload
}

export interface AccessKeyServer {
  /** The JWKS address, for ACCESS_CERTS_URL. */
  certsUrl: string
  /** How many times the keys were fetched. */
  fetches(): number
  /** An Access-like token, valid unless the options say otherwise. */
  sign(options?: TokenOptions): Promise<string>
  /** The variables a site needs to trust this server. */
  vars(extra?: Record<string, string>): Record<string, string>
  close(): Promise<void>
}

export async function startAccessKeys(port = 0): Promise<AccessKeyServer> {
  const kid = 'stand-in-key-1'
  const keys = await generateKeyPair('RS256', { extractable: true })
  const foreign = await generateKeyPair('RS256', { extractable: true })
  const publicJwk = { ...(await exportJWK(keys.publicKey)), kid, alg: 'RS256', use: 'sig' }
  let fetches = 0

  const server: Server = createServer((req, res) => {
    if (req.url === '/cdn-cgi/access/certs') {
      fetches++
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ keys: [publicJwk], public_cert: { kid } }))
      return
    }
    if (req.url === '/__health') {
      res.writeHead(200).end('ok')
      return
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const { port: actual } = server.address() as AddressInfo
  const certsUrl = `http://127.0.0.1:${actual}/cdn-cgi/access/certs`

  const signWith = (key: PrivateKey, options: TokenOptions) => {
    const now = Math.floor(Date.now() / 1000)
    const claims: JWTPayload = { type: 'app', ...options.extra }
    if (options.email !== null) claims.email = options.email ?? TEST_OPERATOR
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(options.iss ?? `https://${TEST_TEAM_DOMAIN}`)
      .setAudience(options.aud ?? TEST_ACCESS_AUD)
      .setSubject('00000000-0000-4000-8000-000000000001')
      .setIssuedAt(now)
      .setNotBefore(now + (options.notBeforeIn ?? 0))
      .setExpirationTime(now + (options.expiresIn ?? 3600))
      .sign(key)
  }

  return {
    certsUrl,
    fetches: () => fetches,
    sign: (options = {}) => signWith(options.foreignKey ? foreign.privateKey : keys.privateKey, options),
    vars: (extra = {}) => ({
      ACCESS_TEAM_DOMAIN: TEST_TEAM_DOMAIN,
      ACCESS_AUD: TEST_ACCESS_AUD,
      ACCESS_CERTS_URL: certsUrl,
      ...extra,
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
