import { refusal, replyResponse } from './reply'

/** A contact message is at most a few KB. */
export const MAX_BODY_BYTES = 32 * 1024

export function payloadTooLarge(): Response {
  return replyResponse(refusal('payload_too_large', 413, `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`))
}

/** Trusts Content-Length when present; otherwise reads a copy and stops past the limit, before anything parses it. */
export async function exceedsBodyLimit(request: Request, limit = MAX_BODY_BYTES): Promise<boolean> {
  if (!request.body) return false
  const declared = request.headers.get('Content-Length')
  if (declared !== null) {
    const length = Number(declared)
    if (Number.isFinite(length) && length > limit) return true
    if (Number.isFinite(length)) return false
  }
  const reader = request.clone().body?.getReader()
  if (!reader) return false
  let total = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return false
      total += value.byteLength
      if (total > limit) return true
    }
  } finally {
    reader.cancel().catch(() => {})
  }
}

/** Up to `cap` bytes: answering without reading the body can break the connection it came on. */
export async function discardBody(request: Request, cap = 8 * 1024 * 1024): Promise<void> {
  if (!request.body || request.bodyUsed) return
  const reader = request.body.getReader()
  let total = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      total += value.byteLength
      if (total > cap) return void (await reader.cancel())
    }
  } catch {}
}

/** 415: not a form's content type; 400: malformed. */
export type FormBody = { ok: true; form: FormData } | { ok: false; status: 415 | 400 }

/** Any other body is read and discarded before the refusal: wrangler dev drops the connection otherwise (workers-sdk#5095). */
export async function readFormBody(request: Request): Promise<FormBody> {
  const type = (request.headers.get('Content-Type') ?? '').toLowerCase()
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) {
    await discardBody(request)
    return { ok: false, status: 415 }
  }
  try {
    return { ok: true, form: await request.formData() }
  } catch {
    return { ok: false, status: 400 }
  }
}
