import { BRAND_MARK_ID } from '~/document/brand-mark'
import { site } from '~/site'

/**
 * Brand mark (a stylised "A" whose crossbar is a sound wave) and name. The mark is the favicon's
 * drawing, which the server adds to the page as a symbol (app/document/page-symbols.server.ts): it paints with the
 * page, needs no request of its own, and the JavaScript every page loads does not carry its paths.
 */
export function Logo() {
  return (
    <span className="flex items-center gap-2.5">
      <svg aria-hidden="true" width={36} height={36} viewBox="0 0 40 40" className="size-9 shrink-0">
        <use href={`#${BRAND_MARK_ID}`} />
      </svg>
      <span className="text-lg font-semibold tracking-tight whitespace-nowrap text-fg">{site.name}</span>
    </span>
  )
}
