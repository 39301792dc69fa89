import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { Icon } from '~/components/Icon'
import { type FooterColumn, footerLinks } from '~/content/pages'
import { site } from '~/site'
import { Logo } from './Logo'

/** The footer's columns, and the links in them that are not the site's pages (those are in the page list). */
const COLUMNS: readonly {
  column: FooterColumn
  title: string
  links: readonly { label: string; href: string; at: number }[]
}[] = [
  { column: 'company', title: 'Company', links: [] },
  { column: 'resources', title: 'Resources', links: [{ label: 'Documentation', href: site.documentationPath, at: 1 }] },
  {
    column: 'connect',
    title: 'Connect',
    links: [
      { label: 'Twitter', href: site.social.twitter, at: 2 },
      { label: 'LinkedIn', href: site.social.linkedin, at: 3 },
      { label: 'GitHub', href: site.social.github, at: 4 },
    ],
  },
]

const footerLink = 'inline-flex min-h-11 items-center text-muted transition-colors hover:text-fg sm:min-h-0 sm:py-1'

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h2 className="text-sm font-semibold tracking-wide text-fg uppercase">{title}</h2>
      <ul className="mt-3 space-y-1.5">{children}</ul>
    </div>
  )
}

function External({ href, inSite, children }: { href: string; inSite: boolean; children: ReactNode }) {
  return (
    <li>
      <a href={href} className={footerLink} rel={inSite ? undefined : 'noopener noreferrer'}>
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
        {COLUMNS.map(({ column, title, links }) => (
          <Column key={column} title={title}>
            {[...footerLinks(column), ...links]
              .sort((a, b) => a.at - b.at)
              .map((link) =>
                'to' in link ? (
                  <li key={link.label}>
                    <Link to={link.to} className={footerLink}>
                      {link.label}
                    </Link>
                  </li>
                ) : (
                  <External key={link.label} href={link.href} inSite={!link.href.startsWith('http')}>
                    {link.label}
                  </External>
                ),
              )}
          </Column>
        ))}
      </div>
      <div className="border-t border-line">
        <div className="container-page flex flex-col gap-3 py-6 text-sm text-subtle sm:flex-row sm:items-center sm:justify-between">
          <p>
            © {site.foundingYear} {site.legalName}. All rights reserved.
          </p>
          <ul className="flex gap-5">
            {footerLinks('legal').map((link) => (
              <li key={link.label}>
                <Link to={link.to} className={footerLink}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  )
}
