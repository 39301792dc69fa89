/**
 * Decorative backdrop: 12 floating shapes and 6 large blurred orbs.
 * CSS transforms and opacity only (compositor-only, no layout). Positions are class
 * names, not style attributes, so the strict Content-Security-Policy (no inline
 * styles) holds, and server and client render the same markup. Still under
 * prefers-reduced-motion (the global reduced-motion rule in app.css).
 */

type Shape = 'ring' | 'square' | 'triangle' | 'dot'

interface FloatingShape {
  shape: Shape
  color: string
  /** Position, size and timing as literal Tailwind classes. */
  className: string
}

export const FLOATING_SHAPES: readonly FloatingShape[] = [
  { shape: 'ring', color: '#38d5f0', className: 'top-[8%] left-[6%] size-[46px] [animation-duration:18s]' },
  {
    shape: 'square',
    color: '#a78bfa',
    className: 'top-[14%] left-[78%] size-[30px] [animation-delay:-3s] [animation-duration:22s]',
  },
  {
    shape: 'triangle',
    color: '#7ee7f7',
    className: 'top-[26%] left-[42%] size-[34px] [animation-delay:-7s] [animation-duration:20s]',
  },
  {
    shape: 'dot',
    color: '#fcd34d',
    className: 'top-[33%] left-[90%] size-[14px] [animation-delay:-2s] [animation-duration:16s]',
  },
  {
    shape: 'ring',
    color: '#c4b5fd',
    className: 'top-[41%] left-[16%] size-[28px] [animation-delay:-9s] [animation-duration:24s]',
  },
  {
    shape: 'square',
    color: '#38d5f0',
    className: 'top-[52%] left-[64%] size-[22px] [animation-delay:-5s] [animation-duration:19s]',
  },
  {
    shape: 'triangle',
    color: '#a78bfa',
    className: 'top-[60%] left-[4%] size-[40px] [animation-delay:-12s] [animation-duration:26s]',
  },
  {
    shape: 'dot',
    color: '#6ee7b7',
    className: 'top-[67%] left-[52%] size-[12px] [animation-delay:-4s] [animation-duration:15s]',
  },
  {
    shape: 'ring',
    color: '#7ee7f7',
    className: 'top-[74%] left-[84%] size-[52px] [animation-delay:-11s] [animation-duration:23s]',
  },
  {
    shape: 'square',
    color: '#fda4af',
    className: 'top-[83%] left-[30%] size-[26px] [animation-delay:-6s] [animation-duration:21s]',
  },
  {
    shape: 'triangle',
    color: '#38d5f0',
    className: 'top-[90%] left-[70%] size-[30px] [animation-delay:-14s] [animation-duration:25s]',
  },
  {
    shape: 'dot',
    color: '#c4b5fd',
    className: 'top-[95%] left-[12%] size-[16px] [animation-delay:-8s] [animation-duration:17s]',
  },
]

/**
 * Position, size, colour and timing of each orb, as literal Tailwind classes. The blur is a soft
 * radial gradient rather than a CSS blur filter: it looks the same and paints far cheaper.
 */
export const ORBS: readonly string[] = [
  'top-[-10%] left-[-8%] size-[40rem] bg-[radial-gradient(circle,rgb(56_213_240/0.32)_0%,transparent_68%)]',
  'top-[5%] left-[60%] size-[32rem] bg-[radial-gradient(circle,rgb(139_92_246/0.34)_0%,transparent_68%)] [animation-delay:-6s]',
  'top-[40%] left-[30%] size-[28rem] bg-[radial-gradient(circle,rgb(20_184_214/0.2)_0%,transparent_68%)] [animation-delay:-12s]',
  'top-[55%] left-[-12%] size-[30rem] bg-[radial-gradient(circle,rgb(167_139_250/0.26)_0%,transparent_68%)] [animation-delay:-18s]',
  'top-[70%] left-[70%] size-[34rem] bg-[radial-gradient(circle,rgb(56_213_240/0.24)_0%,transparent_68%)] [animation-delay:-9s]',
  'top-[88%] left-[35%] size-[26rem] bg-[radial-gradient(circle,rgb(139_92_246/0.24)_0%,transparent_68%)] [animation-delay:-3s]',
]

function ShapeSvg({ shape, color }: { shape: Shape; color: string }) {
  switch (shape) {
    case 'ring':
      return <circle cx="12" cy="12" r="9" fill="none" stroke={color} strokeWidth="1.5" />
    case 'square':
      return <rect x="4" y="4" width="16" height="16" rx="3" fill="none" stroke={color} strokeWidth="1.5" />
    case 'triangle':
      return <path d="M12 3 L21 19 H3 Z" fill="none" stroke={color} strokeWidth="1.5" strokeLinejoin="round" />
    case 'dot':
      return <circle cx="12" cy="12" r="6" fill={color} />
  }
}

export function Background() {
  return (
    <div
      aria-hidden="true"
      data-testid="decorative-background"
      className="pointer-events-none fixed inset-0 -z-10 overflow-hidden bg-[radial-gradient(ellipse_at_top,#141c33_0%,#0b1020_55%,#060913_100%)]"
    >
      {ORBS.map((orb) => (
        <div key={orb} data-orb="" className={`absolute rounded-full animate-drift ${orb}`} />
      ))}
      {FLOATING_SHAPES.map((s) => (
        <svg
          key={s.className}
          aria-hidden="true"
          data-shape={s.shape}
          viewBox="0 0 24 24"
          className={`absolute opacity-40 animate-float ${s.className}`}
        >
          <ShapeSvg shape={s.shape} color={s.color} />
        </svg>
      ))}
    </div>
  )
}
