import type { ReactNode } from 'react'
import { type DeskActionName, type EnquiryStatus, FLASHES, isFlash } from '~/desk'

/** The same on the server and in the browser: `2026-11-23 12:00 UTC`. */
export function formatTime(iso: string | null): string {
  if (!iso) return '—'
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

export const STATUS_LABELS: Record<EnquiryStatus, string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
  held: 'Held',
  handled: 'Handled',
}

const STATUS_STYLES: Record<EnquiryStatus, string> = {
  pending: 'border-amber-300/50 text-amber-300',
  delivered: 'border-success/50 text-success',
  failed: 'border-danger/50 text-danger',
  held: 'border-violet-300/50 text-violet-300',
  handled: 'border-line-strong text-muted',
}

export function StatusLabel({ status }: { status: EnquiryStatus }) {
  return (
    <span className={`inline-block rounded-full border px-2.5 py-0.5 text-sm font-medium ${STATUS_STYLES[status]}`}>
      {STATUS_LABELS[status]}
    </span>
  )
}

const TONES = {
  success: 'border-success/40 bg-success/10 text-success',
  info: 'border-line-strong bg-ink-950/60 text-fg',
  danger: 'border-danger/40 bg-danger/10 text-danger',
} as const

/** Unknown codes show nothing. `detail`: words from the stored data (who changed it), never from the address. */
export function ActionFlash({ code, detail }: { code: unknown; detail?: string | null }) {
  return (
    <div role="status" aria-live="polite">
      {isFlash(code) ? (
        <p className={`mt-6 rounded-xl border px-4 py-3 ${TONES[FLASHES[code].tone]}`}>
          {FLASHES[code].text}
          {detail ? (
            <>
              {' '}
              <span data-testid="stale-move">{detail}</span>
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  )
}

export const buttonStyle =
  'inline-flex min-h-11 items-center justify-center rounded-xl bg-brand-400 px-5 py-2.5 font-semibold text-on-brand transition-colors hover:bg-brand-300'
export const quietButtonStyle =
  'inline-flex min-h-11 items-center justify-center rounded-xl border border-line-strong px-5 py-2.5 font-semibold text-fg transition-colors hover:border-brand-400'
export const dangerButtonStyle =
  'inline-flex min-h-11 items-center justify-center rounded-xl border border-danger/60 bg-danger/10 px-5 py-2.5 font-semibold text-danger transition-colors hover:bg-danger/20'
export const linkStyle = 'font-medium text-brand-300 underline underline-offset-4 hover:text-brand-400'
export const controlStyle =
  'w-full rounded-xl border border-line-strong bg-ink-950/60 px-4 py-2.5 text-fg placeholder:text-subtle transition-colors hover:border-brand-400/60 focus:border-brand-400'

/** The way back to the list, above a desk page's title. */
export function BackToInbox() {
  return (
    <p>
      <a href="/admin" className={linkStyle}>
        All enquiries
      </a>
    </p>
  )
}

/** Works without JavaScript: the server answers 303. */
export function ActionForm({
  action,
  id,
  children,
  extra,
}: {
  action: DeskActionName
  id: string
  children: ReactNode
  extra?: Record<string, string>
}) {
  return (
    <form method="post" action="/admin/actions">
      <input type="hidden" name="action" value={action} />
      <input type="hidden" name="id" value={id} />
      {Object.entries(extra ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </form>
  )
}

/** Newer / "Page n of m" / Older; `href` gives a page's address. */
export function Pager({ page, pages, href }: { page: number; pages: number; href: (page: number) => string }) {
  if (pages <= 1) return null
  return (
    <nav aria-label="Pages" className="mt-6 flex items-center gap-4">
      {page > 1 ? (
        <a href={href(page - 1)} className={linkStyle} rel="prev">
          Newer
        </a>
      ) : null}
      <span className="text-muted">
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <a href={href(page + 1)} className={linkStyle} rel="next">
          Older
        </a>
      ) : null}
    </nav>
  )
}
