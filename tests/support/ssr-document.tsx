import { type AnyRouter, HeadContent, Outlet, Scripts } from '@tanstack/react-router'
import { createRequestHandler } from '@tanstack/react-router/ssr/server'
import type { ReactNode } from 'react'

/** The document a root route renders on the server: its head, then the page (or `children` around it). */
export function SsrDocument({ children }: { children?: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <HeadContent />
      </head>
      <body>
        {children ?? <Outlet />}
        <Scripts />
      </body>
    </html>
  )
}

type Render = Parameters<ReturnType<typeof createRequestHandler>>[0]

/** The status and HTML a server render of `path` answers. */
export async function ssrGet(createRouter: () => AnyRouter, render: Render, path: string) {
  const response = await createRequestHandler({ createRouter, request: new Request(`http://localhost${path}`) })(render)
  return { status: response.status, html: await response.text() }
}
