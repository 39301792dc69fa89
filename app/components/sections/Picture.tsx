import type { Illustration } from '~/content/types'
import { illustrationSymbolId } from '~/document/page-symbols'
import { usePageValue } from '~/document/use-page-value'

/** Above the fold (`priority`) drawn from the page's symbol at no request, else from its file. */
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
