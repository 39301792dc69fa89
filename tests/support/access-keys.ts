/**
 * A stand-in for Cloudflare Access's key server, on 127.0.0.1 only: it serves a JWKS (as
 * `https://<team>.cloudflareaccess.com/cdn-cgi/access/certs` does) and signs RS256 tokens the way
 * Access does, for tests and for opening the desk locally (`npm run admin-token`).
 *
 * GET /cdn-cgi/access/certs   the public keys ({ keys: [...] })
 * GET /__health               200 when up
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, importJWK, type JWK, type JWTPayload, SignJWT } from 'jose'

export const TEST_TEAM_DOMAIN = 'akshara-test.cloudflareaccess.com'
export const TEST_ACCESS_AUD = '4714c1358e65fe4b408ad6d432a5f878f08194bdb4752441fd56faefa9b2b6f2'
export const TEST_OPERATOR = 'operator@aksharalabs.in'
/** Access's ID for the test operator (the token's `sub`), which the desk's log lines name. */
export const TEST_OPERATOR_ID = '00000000-0000-4000-8000-000000000001'

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey']

export interface TokenOptions {
  email?: string | null
  /** Access's ID for the user; null: none. Default TEST_OPERATOR_ID. */
  sub?: string | null
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

/** Signs tokens as a stand-in key server does, and names the variables a site needs to trust it. */
export interface AccessKeys {
  /** The JWKS address, for ACCESS_CERTS_URL. */
  certsUrl: string
  /** An Access-like token, valid unless the options say otherwise. */
  sign(options?: TokenOptions): Promise<string>
  /** The variables a site needs to trust this server. */
  vars(extra?: Record<string, string>): Record<string, string>
}

export interface AccessKeyServer extends AccessKeys {
  /** How many times the keys were fetched. */
  fetches(): number
  close(): Promise<void>
}

/** What a key file holds: the signing keys of a key server running in another process. */
interface KeyFile {
  certsUrl: string
  key: JWK
  foreign: JWK
}

const KID = 'stand-in-key-1'

/**
 * Starts the stand-in key server on 127.0.0.1 (`port` 0: any free port). With `keyFile`, its private
 * keys are written there, so tests in other processes can sign tokens it accepts (`accessKeysFrom`).
 */
export async function startAccessKeys(port = 0, options: { keyFile?: string } = {}): Promise<AccessKeyServer> {
  const kid = KID
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

  if (options.keyFile) {
    const file: KeyFile = {
      certsUrl,
      key: await exportJWK(keys.privateKey),
      foreign: await exportJWK(foreign.privateKey),
    }
    writeFileSync(options.keyFile, JSON.stringify(file), { mode: 0o600 })
  }

  return {
    ...signer(certsUrl, keys.privateKey, foreign.privateKey),
    fetches: () => fetches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Signs for a key server started elsewhere with a key file (see `startAccessKeys`). */
export async function accessKeysFrom(keyFile: string): Promise<AccessKeys> {
  const file = JSON.parse(readFileSync(keyFile, 'utf8')) as KeyFile
  const key = (await importJWK(file.key, 'RS256')) as PrivateKey
  const foreign = (await importJWK(file.foreign, 'RS256')) as PrivateKey
  return signer(file.certsUrl, key, foreign)
}

function signer(certsUrl: string, key: PrivateKey, foreign: PrivateKey): AccessKeys {
  const signWith = (signingKey: PrivateKey, options: TokenOptions) => {
    const now = Math.floor(Date.now() / 1000)
    const claims: JWTPayload = { type: 'app', ...options.extra }
    if (options.email !== null) claims.email = options.email ?? TEST_OPERATOR
    if (options.sub !== null) claims.sub = options.sub ?? TEST_OPERATOR_ID
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: KID })
      .setIssuer(options.iss ?? `https://${TEST_TEAM_DOMAIN}`)
      .setAudience(options.aud ?? TEST_ACCESS_AUD)
      .setIssuedAt(now)
      .setNotBefore(now + (options.notBeforeIn ?? 0))
      .setExpirationTime(now + (options.expiresIn ?? 3600))
      .sign(signingKey)
  }
  return {
    certsUrl,
    sign: (options = {}) => signWith(options.foreignKey ? foreign : key, options),
    vars: (extra = {}) => ({
      ACCESS_TEAM_DOMAIN: TEST_TEAM_DOMAIN,
      ACCESS_AUD: TEST_ACCESS_AUD,
      ACCESS_CERTS_URL: certsUrl,
      ...extra,
    }),
  }
}
