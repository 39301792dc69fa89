/** A stylised "A" with a sound-wave crossbar: the favicon's and the logo's one drawing (no imports). */
export const BRAND_MARK_ID = 'brand-mark'

/** The mark's colour, a diagonal gradient from the brand's cyan to its violet. */
export function brandMarkGradient(id: string): string {
  return `<linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7ee7f7"/><stop offset="1" stop-color="#a78bfa"/></linearGradient>`
}

export function brandMarkShapes(gradientId: string): string {
  return `<rect x="1" y="1" width="38" height="38" rx="11" fill="#141c33" stroke="url(#${gradientId})" stroke-width="2"/><path d="M11 30 L20 9 L29 30" fill="none" stroke="url(#${gradientId})" stroke-width="3.2" stroke-linecap="round" stroke-linejoin="round"/><path d="M13.5 23 h3 l1.5 -3 l2 5 l2 -4 l1.5 2 h3" fill="none" stroke="#eef1f8" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>`
}
