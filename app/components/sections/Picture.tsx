import type { Illustration } from '~/content/types'

/**
 * An illustration from public/images. Above the fold (`priority`) it loads at once, ahead of
 * other images (on a phone it is often the largest thing in view); elsewhere it loads lazily. Width and height reserve its space, so nothing shifts.
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
