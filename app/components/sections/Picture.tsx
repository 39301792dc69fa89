import type { Illustration } from '~/content/types'
import { illustrationSymbolId } from '~/document/page-symbols'
import { usePageValue } from '~/document/use-page-value'

/**
 * An illustration from public/images. Width and height (or the viewBox) reserve its space, so
 * nothing shifts.
 *
 * Above the fold (`priority`; on a phone it is often the largest thing in view) it is drawn from
 * its symbol in the page, which the server adds (see app/document/page-symbols.server.ts): it paints with the
 * page's first paint and costs no request. A page reached by an in-site navigation has no such
 * symbol, so there it is the file, loaded at once and ahead of other images. Elsewhere it is the
 * file, loaded lazily.
 */
export function Picture({
  image,
  priority = false,
  decorative = false,
  className = '',
}: {
  image: Illustration
  priority?: boolean
  decorative?: boolean
  className?: string
}) {
  const symbolId = illustrationSymbolId(image.src)
  const symbolInPage = usePageValue(() => priority && document.getElementById(symbolId) !== null, priority)
  if (priority && symbolInPage) {
    return (
      <svg
        role={decorative ? undefined : 'img'}
        aria-label={decorative ? undefined : image.alt}
        aria-hidden={decorative || undefined}
        viewBox={`0 0 ${image.width} ${image.height}`}
        width={image.width}
        height={image.height}
        className={`h-auto w-full ${className}`}
      >
        <use href={`#${symbolId}`} />
      </svg>
    )
  }
  return (
    <img
      src={image.src}
      alt={decorative ? '' : image.alt}
      width={image.width}
      height={image.height}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      className={`h-auto w-full ${className}`}
    />
  )
}
