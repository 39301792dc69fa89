/** One JSON line per event that matters: what an operator needs to act, never personal data or a secret. */
export type LogLevel = 'info' | 'warn' | 'error'

export interface LogFields {
  event: string
  requestId?: string
  [key: string]: string | number | boolean | null | undefined
}

export function log(level: LogLevel, fields: LogFields): void {
  const line = JSON.stringify({ level, time: new Date().toISOString(), ...fields })
  if (level === 'error') console.error(line)
  else if (level === 'warn') console.warn(line)
  else console.info(line)
}

/** Short enough for a log line; never shown to visitors. */
export function errorCause(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200)
}

const ids = new WeakMap<Request, string>()

/** `CF-Ray` when present, else random; the same for every call with the same Request. */
export function requestIdFor(request: Request): string {
  let id = ids.get(request)
  if (!id) {
    id = request.headers.get('CF-Ray') ?? crypto.randomUUID()
    ids.set(request, id)
  }
  return id
}
