import { BRAND_MARK_ID } from '~/document/brand-mark'
import { site } from '~/site'

/** The mark is drawn from the page's symbol (page-symbols.server.ts): no request, no paths in every page's JavaScript. */
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
