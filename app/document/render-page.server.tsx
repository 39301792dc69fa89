import type { AnyRouter } from '@tanstack/react-router'
import {
  defineHandlerCallback,
  RouterServer,
  transformHtmlStringWithRouter,
  transformReadableStreamWithRouter,
} from '@tanstack/react-router/ssr/server'
import { renderToReadableStream, renderToStaticMarkup, renderToString } from 'react-dom/server'
import { errorPages } from '~/content/error-pages'
import { cleanUpServerRender, keepInitialHydrationScripts, markInnermostMatchFailed } from '~/lib/router-internals'
import { createSsrStreamResponse, getSsrStatus } from '~/lib/router-internals.server'
import { errorCause, log, requestIdFor } from '~/server/log.server'
import { PlainErrorPage } from './PlainErrorPage'
import { withPageSymbols } from './page-symbols.server'

type Rendered = { ok: true; stream: ReadableStream<Uint8Array> } | { ok: false; error: unknown }

/** React's mark on a Suspense boundary it could not finish (waiting, or thrown inside). */
const UNFINISHED_BOUNDARY = '<!--$!-->'

/** Start's render callback, except that a component throwing gives a 500 with the designed error page
 * (a plain one if the layout fails), not a 200 left blank without JavaScript. */
export function createPageRenderer({ stylesheet, siteName }: { stylesheet: string; siteName: string }) {
  return defineHandlerCallback(async ({ request, router, responseHeaders }) => {
    keepInitialHydrationScripts(router)
    const whole = renderWhole(router)
    if (whole !== null) {
      const html = await transformHtmlStringWithRouter(router, whole, { signal: request.signal })
      return new Response(withPageSymbols(html), { status: getSsrStatus(router), headers: responseHeaders })
    }
    const first = await render(router, request.signal)
    if (first.ok) return respond(router, first.stream, getSsrStatus(router), responseHeaders)

    log('error', {
      event: 'render_error',
      requestId: requestIdFor(request),
      path: pathOf(request),
      cause: errorCause(first.error),
    })
    if (markInnermostMatchFailed(router, first.error)) {
      const second = await render(router, request.signal)
      if (second.ok) return respond(router, second.stream, 500, responseHeaders)
    }

    cleanUpServerRender(router)
    responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
    return new Response(errorDocument(stylesheet, siteName), { status: 500, headers: responseHeaders })
  })
}

/** The page as one string when nothing waits or fails (cheaper than encoding every piece to bytes);
 * null otherwise, for the stream renderer, which knows what is pending and what failed. */
function renderWhole(router: AnyRouter): string | null {
  try {
    const html = renderToString(<RouterServer router={router} />)
    return html.includes(UNFINISHED_BOUNDARY) ? null : html
  } catch {
    return null
  }
}

async function render(router: AnyRouter, signal: AbortSignal): Promise<Rendered> {
  let failure: { error: unknown } | undefined
  try {
    const stream = await renderToReadableStream(<RouterServer router={router} />, {
      signal,
      nonce: router.options.ssr?.nonce,
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError: (error) => {
        failure ??= { error }
      },
    })
    await stream.allReady
    if (!failure) return { ok: true, stream }
    await stream.cancel()
  } catch (error) {
    failure ??= { error }
  }
  return { ok: false, error: failure?.error }
}

function respond(router: AnyRouter, stream: ReadableStream<Uint8Array>, status: number, headers: Headers) {
  const body = transformReadableStreamWithRouter(router, stream, { rendererSafePoint: 'script-close' }).pipeThrough(
    addPageSymbols(),
  )
  return createSsrStreamResponse(router, new Response(body, { status, headers }))
}

/** The page is rendered in full when sent, so holding its text until the end costs nothing. */
function addPageSymbols(): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder()
  let html = ''
  return new TransformStream({
    transform(chunk) {
      html += decoder.decode(chunk, { stream: true })
    },
    flush(controller) {
      html += decoder.decode()
      controller.enqueue(new TextEncoder().encode(withPageSymbols(html)))
    },
  })
}

/** The plain error page (the same words as the designed one) in a document of its own, without the layout. */
function errorDocument(stylesheet: string, siteName: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(errorPages.error.title)} | ${escapeHtml(siteName)}</title>
<link rel="stylesheet" href="${escapeHtml(stylesheet)}">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
</head>
<body class="flex min-h-dvh flex-col text-fg antialiased">
<main id="main" class="flex-1">
${renderToStaticMarkup(<PlainErrorPage kind="error" />)}
</main>
</body>
</html>
`
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function pathOf(request: Request): string {
  return new URL(request.url).pathname.slice(0, 200)
}
