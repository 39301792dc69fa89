import type { SocialNetwork } from '~/content/contact'

/** Lucide's 24-unit grid and stroke (lucide ships no brand marks); decorative: the link carries the name. */
export function SocialIcon({ network, className }: { network: SocialNetwork; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
    >
      {network === 'twitter' ? (
        <>
          <path d="M4 4h4.5L20 20h-4.5z" />
          <path d="M19.5 4l-6.4 7.2M4.5 20l6.4-7.2" />
        </>
      ) : null}
      {network === 'facebook' ? (
        <>
          <circle cx="12" cy="12" r="9.5" />
          <path d="M15.5 7.5h-1.75A2.75 2.75 0 0 0 11 10.25V21.5" />
          <path d="M8.5 13h6" />
        </>
      ) : null}
      {network === 'linkedin' ? (
        <>
          <rect x="3" y="3" width="18" height="18" rx="3.5" />
          <path d="M8 10.5V17" />
          <path d="M8 7.25v.01" strokeWidth="2.5" />
          <path d="M12 17v-6.5M12 13.25A2.75 2.75 0 0 1 17 13.5V17" />
        </>
      ) : null}
      {network === 'github' ? (
        <>
          <path d="M12 20.5c-4.4 0-7.5-2.6-7.5-6.4 0-1.5.5-2.8 1.3-3.8L5.4 5.2l4 1.9a10 10 0 0 1 5.2 0l4-1.9-.4 5.1c.8 1 1.3 2.3 1.3 3.8 0 3.8-3.1 6.4-7.5 6.4z" />
          <path d="M9.5 13.5v.5M14.5 13.5v.5" strokeWidth="2.25" />
          <path d="M11 16.5h2" />
        </>
      ) : null}
    </svg>
  )
}
