import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { Icon } from '~/components/Icon'
import { site } from '~/site'
import { Logo } from './Logo'

const footerLink = 'inline-flex min-h-11 items-center text-muted transition-colors hover:text-fg sm:min-h-0 sm:py-1'

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h2 className="text-sm font-semibold tracking-wide text-fg uppercase">{title}</h2>
      <ul className="mt-3 space-y-1.5">{children}</ul>
    </div>
  )
}

function External({ href, children }: { href: string; children: ReactNode }) {
  return (
    <li>
      <a href={href} className={footerLink} rel="noopener noreferrer">
        {children}
      </a>
    </li>
  )
}

export function SiteFooter() {
  return (
    <footer className="mt-[var(--spacing-section)] border-t border-line bg-ink-950/70">
      <div className="container-page grid gap-10 py-14 sm:grid-cols-2 lg:grid-cols-[1.4fr_1fr_1fr_1fr]">
        <div className="max-w-sm">
          <Logo />
          <p className="mt-4 text-muted">
            DevOps, AI products and automation engineering for teams that need systems to run themselves.
          </p>
          <a
            href={site.product.url}
            target="_blank"
            rel="noopener noreferrer"
            className="mt-5 inline-flex min-h-11 items-center gap-2 rounded-full border border-line-strong px-4 text-sm font-medium text-fg hover:border-brand-400"
          >
            Visit the {site.product.name} site
            <Icon name="external-link" className="size-4" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        </div>
        <Column title="Company">
          <li>
            <Link to="/about" className={footerLink}>
              About
            </Link>
          </li>
          <li>
            <Link to="/services" className={footerLink}>
              Services
            </Link>
          </li>
          <li>
            <Link to="/products" className={footerLink}>
              Products
            </Link>
          </li>
        </Column>
        <Column title="Resources">
          <li>
            <a href={site.documentationPath} className={footerLink}>
              Documentation
            </a>
          </li>
          <li>
            <Link to="/privacy" className={footerLink}>
              Privacy Policy
            </Link>
          </li>
          <li>
            <Link to="/contact" className={footerLink}>
              Support
            </Link>
          </li>
        </Column>
        <Column title="Connect">
          <li>
            <Link to="/contact" className={footerLink}>
              Contact
            </Link>
          </li>
          <External href={site.social.twitter}>Twitter</External>
          <External href={site.social.linkedin}>LinkedIn</External>
          <External href={site.social.github}>GitHub</External>
        </Column>
      </div>
      <div className="border-t border-line">
        <div className="container-page flex flex-col gap-3 py-6 text-sm text-subtle sm:flex-row sm:items-center sm:justify-between">
          <p>
            © {site.foundingYear} {site.legalName}. All rights reserved.
          </p>
          <ul className="flex gap-5">
            <li>
              <Link to="/privacy" className={footerLink}>
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link to="/terms" className={footerLink}>
                Terms of Service
              </Link>
            </li>
          </ul>
        </div>
      </div>
    </footer>
  )
}
