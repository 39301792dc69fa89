/**
 * Small HTTP helpers for the stand-in Cloudflare API: reading bodies, Cloudflare's response
 * envelope, and an error type that carries Cloudflare's error code.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/** An API error, answered as `{ success: false, errors: [{ code, message }] }` with `status`. */
export class ApiError extends Error {
  readonly status: number
  readonly code: number
  readonly messages: string[]
  /** Further errors answered with the first (the API lists, say, every missing binding). */
  readonly more: { code: number; message: string }[]
  constructor(
    status: number,
    code: number,
    message: string,
    messages: string[] = [],
    more: { code: number; message: string }[] = [],
  ) {
    super(message)
    this.status = status
    this.code = code
    this.messages = messages
    this.more = more
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

/** Cloudflare's v4 envelope. */
export function envelope(result: unknown, resultInfo?: Record<string, unknown>) {
  return { success: true, errors: [], messages: [], result, ...(resultInfo ? { result_info: resultInfo } : {}) }
}

export function errorEnvelope(error: ApiError) {
  return {
    success: false,
    errors: [{ code: error.code, message: error.message }, ...error.more],
    messages: error.messages.map((message) => ({ message })),
    result: null,
  }
}

/** Parses a JSON body, or answers 400 as the API does for a malformed one. */
export function parseJson<T = Record<string, unknown>>(body: Buffer): T {
  try {
    return JSON.parse(body.toString('utf8') || 'null') as T
  } catch {
    throw new ApiError(400, 10026, 'Could not parse the request body as JSON')
  }
}

/** Reads a multipart/form-data body with the platform's own parser (undici's, in Node). */
export async function parseMultipart(req: IncomingMessage, body: Buffer): Promise<FormData> {
  const contentType = req.headers['content-type'] ?? ''
  if (!contentType.startsWith('multipart/form-data')) {
    throw new ApiError(400, 10026, `Expected multipart/form-data, got "${contentType}"`)
  }
  return new Request('http://stand-in/', {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: new Uint8Array(body),
  }).formData()
}

/** An unsigned JWT (header.payload.signature): wrangler decodes these tokens' payloads, never checks them. */
export function makeJwt(payload: Record<string, unknown>): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(payload)}.stand-in`
}

export function readJwt(token: string): Record<string, unknown> | undefined {
  const part = token.split('.')[1]
  if (!part) return undefined
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>
  } catch {
    return undefined
  }
}
