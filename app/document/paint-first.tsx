/**
 * Paint first, then start the client code.
 *
 * Start's <HeadContent> puts a `<link rel="modulepreload">` in the head for the client entry and
 * every chunk of the current page's routes, and its <Scripts> ends the body with
 * `<script type="module" async src="/assets/index-….js">`. The browser finds all of them while it
 * reads the HTML, so they start downloading before the first paint and compete with the
 * stylesheet for the first round trips of a slow connection. Every page is complete without
 * JavaScript (server-rendered, native links, native form post, a menu that opens without
 * script), so nothing the visitor sees at first waits for that code.
 *
 * <PaintFirstHead> renders Start's head tags (`useTags` and `Asset`, both public exports of
 * @tanstack/react-router) without the modulepreload links. <PaintFirstScripts> renders on the
 * server what <Scripts> renders, except that the entry's `<script src>` becomes a small inline
 * loader (carrying the request's CSP nonce) that, once the browser reports its first contentful
 * paint, adds the modulepreload links Start would have put in the head, then the same module
 * script. No timer: the start signal is the paint itself. With the links in place, all the page's
 * chunks download at once, and Vite's dynamic-import helper, which preloads a route chunk's
 * imports by adding a link for each one it does not find, adds none while the page hydrates.
 *
 * The router internals it needs (the rendered matches, the bootstrap scripts) come from
 * `~/lib/router-internals`, the one adapter, whose tripwire test names any that an upgrade removes.
 * The shapes of public values it relies on — modulepreload tags from `useTags()` have
 * `attrs.rel === 'modulepreload'`; the entry is a manifest script with `attrs.type === 'module'`
 * and a string `attrs.src` — are checked by tests/e2e/paint-first.spec.ts (no modulepreload and
 * no entry `<script src>` in the served HTML, scripts only after the first paint, hydration).
 * Without the internals, <PaintFirstScripts> falls back to Start's own <Scripts>: the page still
 * works, only starts its code earlier, and both tests fail.
 */
import { Asset, type RouterManagedTag, Scripts, useRouter, useTags } from '@tanstack/react-router'
import {
  composeSsrBodyScripts,
  getSsrBodyScriptParts,
  renderedMatches,
  takeInitialHydrationScripts,
} from '~/lib/router-internals'

const isModulePreload = (tag: RouterManagedTag) => tag.tag === 'link' && tag.attrs?.rel === 'modulepreload'

/** Start's head tags without the script preloads. */
export function PaintFirstHead() {
  const router = useRouter()
  const tags = useTags()
  const nonce = router.options.ssr?.nonce
  return (
    <>
      {tags
        .filter((tag) => !isModulePreload(tag))
        .map((tag) => (
          <Asset {...tag} key={`tsr-meta-${JSON.stringify(tag)}`} nonce={nonce} />
        ))}
    </>
  )
}

/**
 * The loader: waits for the first contentful paint (PerformanceObserver 'paint', buffered), then
 * adds a modulepreload link for each of the page's other chunks and the entry module scripts.
 * Where paint timing is not supported it waits two animation frames (the second runs after the
 * first frame has been painted); so does a page loaded in a background tab once it is shown
 * (browsers may not report a paint that happened while hidden).
 */
export function entryLoader(sources: readonly string[], preloads: readonly string[] = []): string {
  return `(function(d,s,p){var n=d.currentScript&&d.currentScript.nonce;function go(){if(s.length===0)return;for(var i=0;i<p.length;i++){var l=d.createElement('link');l.rel='modulepreload';l.href=p[i];if(n)l.nonce=n;d.head.appendChild(l)}for(i=0;i<s.length;i++){var e=d.createElement('script');e.type='module';e.src=s[i];if(n)e.nonce=n;d.body.appendChild(e)}s=[]}function frames(){requestAnimationFrame(function(){requestAnimationFrame(go)})}var P=window.PerformanceObserver;if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf('paint')>=0){var o=new P(function(l){if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();go()}});o.observe({type:'paint',buffered:true})}else frames();if(d.visibilityState==='hidden')d.addEventListener('visibilitychange',function v(){if(d.visibilityState==='visible'){d.removeEventListener('visibilitychange',v);frames()}})})(document,${JSON.stringify(sources)},${JSON.stringify(preloads)})`
}

const routeScriptAttrs = { suppressHydrationWarning: true }

/** <Scripts>, with the entry started after the first paint (server); <Scripts> itself in the browser. */
export function PaintFirstScripts() {
  const router = useRouter()
  // Vite sets import.meta.env.SSR to false in the browser build, which then drops the loader.
  if (!import.meta.env.SSR || !router.isServer) return <Scripts />
  return <LoaderScripts />
}

function LoaderScripts() {
  const router = useRouter()
  // The page's chunks, which Start would preload from the head (<PaintFirstHead> leaves them out).
  const preloads = useTags()
    .filter(isModulePreload)
    .map((tag) => tag.attrs?.href)
    .filter((href): href is string => typeof href === 'string')
  const matches = renderedMatches(router)
  const takeBootstrap = takeInitialHydrationScripts(router)
  if (!matches || !takeBootstrap) return <Scripts />

  const nonce = router.options.ssr?.nonce
  const [routeScripts, manifestScripts] = getSsrBodyScriptParts(matches, router.ssr?.manifest, nonce, routeScriptAttrs)
  const entries: string[] = []
  const kept = manifestScripts.filter((script) => {
    const src = script.attrs?.src
    if (script.attrs?.type !== 'module' || typeof src !== 'string') return true
    entries.push(src)
    return false
  })
  const loader: RouterManagedTag = {
    tag: 'script',
    attrs: { nonce, ...routeScriptAttrs },
    children: entryLoader(
      entries,
      preloads.filter((href) => !entries.includes(href)),
    ),
  }
  const scripts = composeSsrBodyScripts([routeScripts, [...kept, loader]], takeBootstrap())
  return (
    <>
      {scripts.map((asset, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the same order on every render, as in <Scripts>
        <Asset {...asset} key={`tsr-scripts-${asset.tag}-${i}`} />
      ))}
    </>
  )
}
