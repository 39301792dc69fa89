import type { Illustration } from '~/content/types'
import { Picture } from './Picture'

/** The voice assistant's avatar with two soft rings pulsing behind it (still under reduced motion). */
export function AvatarVisual({ image, priority = false }: { image: Illustration; priority?: boolean }) {
  return (
    <div className="relative mx-auto w-full max-w-sm">
      <div
        aria-hidden="true"
        className="absolute inset-[8%] animate-ping-slow rounded-full border border-brand-400/30"
      />
      <div
        aria-hidden="true"
        className="absolute inset-[2%] animate-ping-slow rounded-full border border-violet-400/25 [animation-delay:-1.6s]"
      />
      <Picture image={image} priority={priority} className="relative" />
    </div>
  )
}
