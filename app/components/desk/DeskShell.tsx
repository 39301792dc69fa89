import { useRouterState } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { site } from '~/site'

export const DESK_SECTIONS = [
  {
    label: 'Enquiries',
    href: '/admin',
    match: (path: string) => path === '/admin' || path.startsWith('/admin/enquiries'),
  },
  { label: 'Activity', href: '/admin/activity', match: (path: string) => path.startsWith('/admin/activity') },
  { label: 'Requests by person', href: '/admin/person', match: (path: string) => path.startsWith('/admin/person') },
  {
    label: 'Early access',
    href: '/admin/early-access',
    match: (path: string) => path.startsWith('/admin/early-access'),
  },
  { label: 'Set-up', href: '/admin/setup', match: (path: string) => path.startsWith('/admin/setup') },
] as const

const linkBase = 'rounded-md px-2.5 py-1.5 text-sm font-medium transition-colors hover:bg-white/5 hover:text-fg'

/** None of the brochure's header, footer or shapes; plain links, so it works without JavaScript. */
export function DeskShell({ operator, children }: { operator: string; children: ReactNode }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname.replace(/\/$/, '') || '/' })
  return (
    <div className="desk flex min-h-dvh flex-col">
      <header className="border-b border-line bg-ink-950">
        <div className="container-page flex flex-wrap items-center gap-x-6 gap-y-1 py-2">
          <a href="/admin" className="rounded-md py-1 font-semibold text-fg">
            {site.name} <span className="font-normal text-muted">desk</span>
          </a>
          <nav aria-label="Desk">
            <ul className="flex flex-wrap items-center gap-x-1">
              {DESK_SECTIONS.map((section) => {
                const current = section.match(pathname)
                return (
                  <li key={section.label}>
                    <a
                      href={section.href}
                      aria-current={current ? 'page' : undefined}
                      className={`${linkBase} ${current ? 'bg-white/8 text-fg shadow-[inset_0_-2px_0_0_var(--color-brand-400)]' : 'text-muted'}`}
                    >
                      {section.label}
                    </a>
                  </li>
                )
              })}
            </ul>
          </nav>
          <p className="text-sm text-muted sm:ml-auto">
            Signed in as{' '}
            <span className="break-all text-fg" data-testid="desk-operator">
              {operator}
            </span>
          </p>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex-1 pb-16 outline-none">
        {children}
      </main>
    </div>
  )
}
