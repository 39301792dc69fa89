/// <reference types="vite/client" />
import { createRootRoute, Outlet, useRouterState } from '@tanstack/react-router'
import { type ReactNode, useEffect } from 'react'
import { Background } from '~/components/Background'
import { LazyNotFound } from '~/components/lazy-pages'
import { loadMotionOnFirstInteraction } from '~/components/motion/motion-gate'
import { PageTransition } from '~/components/PageTransition'
import { SiteFooter } from '~/components/SiteFooter'
import { SiteHeader } from '~/components/SiteHeader'
import { errorPages } from '~/content/error-pages'
import { FONT_FLAG_SCRIPT, loadInterForNextPages } from '~/document/fonts'
import { completeIconSymbols } from '~/document/page-symbols'
import { PaintFirstHead, PaintFirstScripts } from '~/document/paint-first'
import { isNotFoundMatch } from '~/lib/router-internals'
import { seo } from '~/lib/seo'
import { ldJson, organizationJsonLd } from '~/lib/structured-data'
import { rememberVisit } from '~/lib/visit-source'
import { isDeskPath } from '~/server/desk-path'
import { site } from '~/site'
import appCss from '~/styles/app.css?url'

export const Route = createRootRoute({
  head: ({ matches }) => {
    // Defaults, and what the not-found page shows; pages set their own.
    const notFound = matches.some(isNotFoundMatch)
    const base = seo({
      title: notFound ? errorPages['not-found'].title : undefined,
      description: `${site.name} builds DevOps and cloud automation, AI and SaaS products, industrial automation and AI-powered websites.`,
      path: '/',
      noindex: notFound,
      shareCard: false,
    })
    return {
      meta: [
        { charSet: 'utf-8' },
        { name: 'viewport', content: 'width=device-width, initial-scale=1' },
        { name: 'theme-color', content: site.themeColor },
        { name: 'color-scheme', content: 'dark' },
        ...base.meta,
        ldJson(organizationJsonLd()),
      ],
      // Before the first paint, on a visitor's later pages: use Inter, which is then in their cache.
      scripts: [{ children: FONT_FLAG_SCRIPT }],
      links: [
        { rel: 'stylesheet', href: appCss },
        { rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
        { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
        { rel: 'apple-touch-icon', href: '/apple-touch-icon.png' },
        { rel: 'manifest', href: '/site.webmanifest' },
      ],
    }
  },
  component: RootComponent,
  notFoundComponent: LazyNotFound,
})

function RootComponent() {
  return (
    <RootDocument>
      <Outlet />
    </RootDocument>
  )
}

function RootDocument({ children }: { children: ReactNode }) {
  // Marks the page as interactive; end-to-end tests wait for it before clicking.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true'
    loadMotionOnFirstInteraction()
    loadInterForNextPages()
    completeIconSymbols()
    rememberVisit()
  }, [])
  // The desk draws its own shell (app/routes/admin/route.tsx), without the brochure's.
  const desk = useRouterState({ select: (s) => isDeskPath(s.location.pathname) })

  return (
    <html lang="en">
      <head>
        <PaintFirstHead />
      </head>
      <body className="flex min-h-dvh flex-col text-fg antialiased">
        <a
          href="#main"
          className="fixed top-3 left-3 z-50 -translate-y-20 rounded-lg bg-brand-400 px-4 py-3 font-semibold text-on-brand focus:translate-y-0"
        >
          Skip to content
        </a>
        {desk ? (
          children
        ) : (
          <>
            <Background />
            <SiteHeader />
            <main id="main" tabIndex={-1} className="flex-1 outline-none">
              <PageTransition>{children}</PageTransition>
            </main>
            <SiteFooter />
          </>
        )}
        <PaintFirstScripts />
      </body>
    </html>
  )
}
