import type { Accent } from '~/content/types'

interface AccentClasses {
  /** Icon tile: tinted background, coloured icon, soft ring. */
  tile: string
  /** Coloured text. */
  text: string
  /** A faint glow for the top edge of a card. */
  glow: string
}

/** Literal class names per accent, so Tailwind finds them in the source. */
export const ACCENTS: Record<Accent, AccentClasses> = {
  cyan: {
    tile: 'bg-brand-400/10 text-brand-300 ring-brand-400/30',
    text: 'text-brand-300',
    glow: 'via-brand-400/60',
  },
  violet: {
    tile: 'bg-violet-400/10 text-violet-300 ring-violet-400/30',
    text: 'text-violet-300',
    glow: 'via-violet-400/60',
  },
  emerald: {
    tile: 'bg-emerald-300/10 text-emerald-300 ring-emerald-300/30',
    text: 'text-emerald-300',
    glow: 'via-emerald-300/60',
  },
  amber: {
    tile: 'bg-amber-300/10 text-amber-300 ring-amber-300/30',
    text: 'text-amber-300',
    glow: 'via-amber-300/60',
  },
  rose: {
    tile: 'bg-rose-300/10 text-rose-300 ring-rose-300/30',
    text: 'text-rose-300',
    glow: 'via-rose-300/60',
  },
}
