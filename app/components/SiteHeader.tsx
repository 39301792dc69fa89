import { Link, useRouterState } from '@tanstack/react-router'
import { useEffect, useId, useRef, useState } from 'react'
import { Icon } from '~/components/Icon'
import { mainNav } from '~/content/pages'
import { site } from '~/site'
import { Logo } from './Logo'

const linkBase =
  'rounded-lg px-3 py-2 text-[0.9375rem] font-medium text-muted transition-colors hover:text-fg hover:bg-white/5'
const linkActive = 'text-fg bg-white/8 shadow-[inset_0_-2px_0_0_var(--color-brand-400)]'

/** On small screens the menu is an HTML popover, so it works without JavaScript; React adds `aria-expanded`. */
export function SiteHeader() {
  // Unknown until hydrated: the popover button tells assistive technology itself, and `false` could be wrong.
  const [open, setOpen] = useState<boolean | undefined>(undefined)
  const menuId = useId()
  const menuRef = useRef<HTMLDivElement>(null)
  const pathname = useRouterState({ select: (s) => s.location.pathname })

  const close = () => {
    const menu = menuRef.current
    if (menu?.matches(':popover-open')) menu.hidePopover()
  }

  // The popover's own state (it may have been opened before hydration) drives ours.
  useEffect(() => {
    const menu = menuRef.current
    if (!menu) return
    setOpen(menu.matches(':popover-open'))
    const onToggle = (event: Event) => setOpen((event as ToggleEvent).newState === 'open')
    menu.addEventListener('toggle', onToggle)
    return () => menu.removeEventListener('toggle', onToggle)
  }, [])

  // biome-ignore lint/correctness/useExhaustiveDependencies: the pathname change is the trigger
  useEffect(() => {
    close()
  }, [pathname])

  return (
    <header className="sticky top-0 z-40 border-b border-line">
      {/* The backdrop lives on its own layer (a background on the header would sit above the
          page's shapes only when scrolled under); opaque enough to need no backdrop-filter. */}
      <div aria-hidden="true" className="absolute inset-0 -z-10 bg-ink-900/92" />
      <div className="container-page flex h-16 items-center justify-between gap-4">
        <Link to="/" className="rounded-lg" aria-label={`${site.name} home`}>
          <Logo />
        </Link>

        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {mainNav.map((item) => (
              <li key={item.to}>
                <Link
                  to={item.to}
                  activeOptions={{ exact: item.to === '/' }}
                  className={linkBase}
                  activeProps={{ className: linkActive }}
                >
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <div className="flex items-center gap-2">
          <Link
            to="/contact"
            className="tap hidden min-h-11 items-center rounded-full bg-brand-400 whitespace-nowrap px-5 text-sm font-semibold text-on-brand hover:bg-brand-300 sm:inline-flex"
          >
            Get Started
          </Link>
          <button
            type="button"
            popoverTarget={menuId}
            className="tap inline-flex size-11 items-center justify-center rounded-lg border border-line text-fg lg:hidden"
            aria-expanded={open}
            aria-controls={menuId}
          >
            <span className="menu-when-closed">
              <Icon name="menu" className="size-5" />
              <span className="sr-only">Open menu</span>
            </span>
            <span className="menu-when-open">
              <Icon name="x" className="size-5" />
              <span className="sr-only">Close menu</span>
            </span>
          </button>
        </div>
      </div>

      <div
        ref={menuRef}
        id={menuId}
        popover="auto"
        data-site-menu=""
        className="fixed inset-x-0 top-16 bottom-0 m-0 h-auto w-auto max-w-none overflow-y-auto border-0 border-t border-line bg-ink-900 p-0 text-fg lg:hidden"
      >
        <nav aria-label="Mobile" className="container-page py-6">
          <ul className="flex flex-col gap-1">
            {mainNav.map((item) => (
              <li key={item.to}>
                <Link
                  to={item.to}
                  activeOptions={{ exact: item.to === '/' }}
                  className="flex min-h-12 items-center rounded-xl px-4 text-lg font-medium text-muted hover:bg-white/5 hover:text-fg"
                  activeProps={{ className: 'bg-white/8 text-fg' }}
                  onClick={close}
                >
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
          <Link
            to="/contact"
            onClick={close}
            className="mt-6 flex min-h-12 items-center justify-center rounded-full bg-brand-400 px-5 font-semibold text-on-brand"
          >
            Get Started
          </Link>
        </nav>
      </div>
    </header>
  )
}
