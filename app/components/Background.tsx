/** Transforms and opacity only (compositor, no layout); positions and timing live in app.css, as the
 * CSP allows no inline styles. Still under prefers-reduced-motion. */

type Shape = 'ring' | 'square' | 'triangle' | 'dot'

const KINDS: readonly Shape[] = ['ring', 'square', 'triangle', 'dot']

/** The 12 shapes, in the order app.css places them: ring, square, triangle, dot, three times. */
const FLOATING_SHAPES: readonly Shape[] = Array.from({ length: 12 }, (_, i) => KINDS[i % KINDS.length] as Shape)

const ORB_COUNT = 6

/** Each outline draws in `currentColor`, the colour app.css gives its shape. */
function ShapeSvg({ shape }: { shape: Shape }) {
  switch (shape) {
    case 'ring':
      return <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="1.5" />
    case 'square':
      return <rect x="4" y="4" width="16" height="16" rx="3" fill="none" stroke="currentColor" strokeWidth="1.5" />
    case 'triangle':
      return <path d="M12 3 L21 19 H3 Z" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
    case 'dot':
      return <circle cx="12" cy="12" r="6" fill="currentColor" />
  }
}

export function Background() {
  return (
    <div
      aria-hidden="true"
      data-testid="decorative-background"
      className="bg-layer pointer-events-none fixed inset-0 -z-10 overflow-hidden"
    >
      {Array.from({ length: ORB_COUNT }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, placed by its position
        <div key={i} data-orb="" className="bg-orb animate-drift" />
      ))}
      {FLOATING_SHAPES.map((shape, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, placed by its position
        <svg key={i} aria-hidden="true" data-shape={shape} viewBox="0 0 24 24" className="bg-shape animate-float">
          <ShapeSvg shape={shape} />
        </svg>
      ))}
    </div>
  )
}
