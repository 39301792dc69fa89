import { site } from '~/site'

/** Brand mark: a stylised "A" whose crossbar is a sound wave. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 40 40" className={className} aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="logo-gradient" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#7ee7f7" />
          <stop offset="1" stopColor="#a78bfa" />
        </linearGradient>
      </defs>
      <rect x="1" y="1" width="38" height="38" rx="11" fill="#141c33" stroke="url(#logo-gradient)" strokeWidth="2" />
      <path
        d="M11 30 L20 9 L29 30"
        fill="none"
        stroke="url(#logo-gradient)"
        strokeWidth="3.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <path
        d="M13.5 23 h3 l1.5 -3 l2 5 l2 -4 l1.5 2 h3"
        fill="none"
        stroke="#eef1f8"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  )
}

export function Logo() {
  return (
    <span className="flex items-center gap-2.5">
      <LogoMark className="size-9 shrink-0" />
      <span className="text-lg font-semibold tracking-tight whitespace-nowrap text-fg">{site.name}</span>
    </span>
  )
}
