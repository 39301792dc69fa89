import type { ReactNode } from 'react'

const TONES = {
  amber: 'border-amber-300/40 bg-amber-300/10 text-amber-300',
  violet: 'border-violet-300/40 bg-violet-400/10 text-violet-300',
  cyan: 'border-brand-300/40 bg-brand-400/10 text-brand-300',
} as const

export type BadgeTone = keyof typeof TONES

/** A small visible label, such as "Coming Soon" or "Enterprise". */
export function Badge({ tone = 'cyan', children }: { tone?: BadgeTone; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold tracking-wide whitespace-nowrap ${TONES[tone]}`}
    >
      {children}
    </span>
  )
}
