import { lazy, memo, Suspense } from 'react'
import type { IconProps } from './icon-registry'

/** An empty box the size of the icon: while the registry loads, or if it cannot be loaded. */
function Placeholder({ className }: IconProps) {
  return <svg aria-hidden="true" viewBox="0 0 24 24" className={className} />
}

/**
 * Content names its icons (IconName); this component draws them, through the registry in
 * icon-registry.tsx. The registry is one chunk of its own, loaded when a page shows its first
 * icon, so no page's first load carries icons, its own or others'. The server renders the icons
 * in full; in the browser the page hydrates around them and the icons join once the chunk has
 * arrived, leaving the server's markup in place meanwhile. Later pages find the chunk loaded.
 * Should it fail to load (offline, a deploy removed it), the icons stay empty boxes: they are
 * decoration, and the page goes on working.
 */
const RegisteredIcon = lazy(() =>
  import('./icon-registry').then(
    (m) => ({ default: m.RegisteredIcon }),
    () => ({ default: Placeholder }),
  ),
)

/**
 * The icon a name in content stands for (decorative, as lucide draws it: aria-hidden). Memoised,
 * so that a parent's render does not disturb an icon still waiting to hydrate.
 */
export const Icon = memo(function Icon(props: IconProps) {
  return (
    <Suspense fallback={<Placeholder {...props} />}>
      <RegisteredIcon {...props} />
    </Suspense>
  )
})
