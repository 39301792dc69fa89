import { LazyMotion, m } from 'framer-motion'
import type { ReactNode } from 'react'

const loadFeatures = () => import('./motion-features').then((mod) => mod.default)

/** A block that lifts slightly under the pointer (framer-motion `m` through `LazyMotion`). */
export function LiftOnHover({ className, children }: { className: string; children: ReactNode }) {
  return (
    <LazyMotion features={loadFeatures} strict>
      <m.div whileHover={{ y: -4 }} transition={{ type: 'spring', stiffness: 320, damping: 26 }} className={className}>
        {children}
      </m.div>
    </LazyMotion>
  )
}
