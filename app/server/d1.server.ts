/** Every D1 call is bounded by a time-out: a stalled database never leaves a visitor or an operator waiting. */
export const STORE_TIMEOUT_MS = 5_000

// Fields written out, not parameter properties: plain Node loads this file and only strips types.
export class LedgerError extends Error {
  readonly code: 'missing_store_binding' | 'store_timeout' | 'store_error'
  readonly errorName?: string
  constructor(code: LedgerError['code'], errorName?: string) {
    super(code)
    this.code = code
    this.errorName = errorName
  }
}

/** Any failure becomes a LedgerError, whose code the log line carries. */
export async function bounded<T>(work: Promise<T>, timeoutMs = STORE_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LedgerError('store_timeout')), timeoutMs)
  })
  try {
    return await Promise.race([work, timeout])
  } catch (error) {
    if (error instanceof LedgerError) throw error
    throw new LedgerError('store_error', (error as Error)?.name ?? 'unknown')
  } finally {
    clearTimeout(timer)
  }
}

export function database(db: D1Database | undefined): D1Database {
  if (!db) throw new LedgerError('missing_store_binding')
  return db
}
