/** Shared class lists for buttons and text, so every page uses the same ones. */
const buttonBase =
  'inline-flex min-h-12 items-center justify-center gap-2 rounded-full px-6 py-3 text-center text-base leading-tight font-semibold tap'

export const buttonStyles = {
  primary: `${buttonBase} bg-brand-400 text-on-brand shadow-[0_8px_30px_-8px_rgb(56_213_240/0.55)] hover:bg-brand-300`,
  secondary: `${buttonBase} border border-line-strong bg-white/5 text-fg hover:border-brand-400 hover:bg-white/10`,
} as const

export const eyebrowStyle = 'text-eyebrow font-semibold tracking-[0.18em] text-brand-300 uppercase'
