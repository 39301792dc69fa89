import { Link, useRouterState } from '@tanstack/react-router'
import { Menu, X } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import { mainNav, site } from '~/site'
import { Logo } from './Logo'

const linkBase =
  'rounded-lg px-3 py-2 text-[0.9375rem] font-medium text-muted transition-colors hover:text-fg hover:bg-white/5'
const linkActive = 'text-fg bg-white/8 shadow-[inset_0_-2px_0_0_var(--color-brand-400)]'

export function SiteHeader() {
  const [open, setOpen] = useState(false)
  const menuId = useId()
  const toggleRef = useRef<HTMLButtonElement>(null)
  const pathname = useRouterState({ select: (s) => s.location.pathname })

  // A navigation (by any means) closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the pathname change is the trigger
  useEffect(() => {
    setOpen(false)
  }, [pathname])

  // While open: Escape closes and returns focus to the toggle; the page behind does not scroll.
  useEffect(() => {
    if (!open) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false)
        toggleRef.current?.focus()
      }
    }
    const previousOverflow = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    document.addEventListener('keydown', onKey)
    return () => {
      document.body.style.overflow = previousOverflow
      document.removeEventListener('keydown', onKey)
    }
  }, [open])

  return (
    <header className="sticky top-0 z-40 border-b border-line">
      {/* The blur lives on its own layer: a backdrop-filter on the header itself would trap the fixed menu. */}
      <div aria-hidden="true" className="absolute inset-0 -z-10 bg-ink-900/80 backdrop-blur-lg" />
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
            className="hidden min-h-11 items-center rounded-full bg-brand-400 whitespace-nowrap px-5 text-sm font-semibold text-on-brand transition hover:bg-brand-300 sm:inline-flex"
          >
            Get Started
          </Link>
          <button
            ref={toggleRef}
            type="button"
            className="inline-flex size-11 items-center justify-center rounded-lg border border-line text-fg lg:hidden"
            aria-expanded={open}
            aria-controls={menuId}
            aria-label={open ? 'Close menu' : 'Open menu'}
            onClick={() => setOpen((value) => !value)}
          >
            {open ? <X aria-hidden="true" className="size-5" /> : <Menu aria-hidden="true" className="size-5" />}
          </button>
        </div>
      </div>

      <div
        id={menuId}
        hidden={!open}
        className="fixed inset-x-0 top-16 bottom-0 overflow-y-auto border-t border-line bg-ink-900 lg:hidden"
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
                  onClick={() => setOpen(false)}
                >
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
          <Link
            to="/contact"
            onClick={() => setOpen(false)}
            className="mt-6 flex min-h-12 items-center justify-center rounded-full bg-brand-400 px-5 font-semibold text-on-brand"
          >
            Get Started
          </Link>
        </nav>
      </div>
    </header>
  )
}
