import { site } from '~/site'

/**
 * Brand mark (a stylised "A" whose crossbar is a sound wave) and name. The mark is the site's
 * favicon.svg, drawn as an image: the browser fetches it once for the tab and the page, and the
 * JavaScript every page loads does not carry its paths.
 */
export function Logo() {
  return (
    <span className="flex items-center gap-2.5">
      <img src="/favicon.svg" alt="" width={36} height={36} decoding="async" className="size-9 shrink-0" />
      <span className="text-lg font-semibold tracking-tight whitespace-nowrap text-fg">{site.name}</span>
    </span>
  )
}
