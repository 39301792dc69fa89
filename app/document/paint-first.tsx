/** Paint first, then start the client code: scripts fetched before the first paint compete with the
 * stylesheet on a slow connection, and every page works without them (docs/performance.md). */
import { Asset, type RouterManagedTag, Scripts, useRouter, useTags } from '@tanstack/react-router'
import {
  composeSsrBodyScripts,
  getSsrBodyScriptParts,
  renderedMatches,
  takeInitialHydrationScripts,
} from '~/lib/router-internals'

const isModulePreload = (tag: RouterManagedTag) => tag.tag === 'link' && tag.attrs?.rel === 'modulepreload'

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

/** Starts the code at the first contentful paint, else after two frames; a page hidden before it
 * painted may never report that paint, so being shown again starts it too. */
export function entryLoader(sources: readonly string[], preloads: readonly string[] = []): string {
  return `(function(d,s,p){var n=d.currentScript&&d.currentScript.nonce;function go(){if(s.length===0)return;for(var i=0;i<p.length;i++){var l=d.createElement('link');l.rel='modulepreload';l.href=p[i];if(n)l.nonce=n;d.head.appendChild(l)}for(i=0;i<s.length;i++){var e=d.createElement('script');e.type='module';e.src=s[i];if(n)e.nonce=n;d.body.appendChild(e)}s=[]}function frames(){requestAnimationFrame(function(){requestAnimationFrame(go)})}var P=window.PerformanceObserver;if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf('paint')>=0){var o=new P(function(l){if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();go()}});o.observe({type:'paint',buffered:true})}else frames();d.addEventListener('visibilitychange',function v(){if(s.length===0)d.removeEventListener('visibilitychange',v);else if(d.visibilityState==='visible')frames()})})(document,${JSON.stringify(sources)},${JSON.stringify(preloads)})`
}

const routeScriptAttrs = { suppressHydrationWarning: true }

export function PaintFirstScripts() {
  const router = useRouter()
  // Vite sets import.meta.env.SSR to false in the browser build, which then drops the loader.
  if (!import.meta.env.SSR || !router.isServer) return <Scripts />
  return <LoaderScripts />
}

function LoaderScripts() {
  const router = useRouter()
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
