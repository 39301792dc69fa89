import { createFileRoute } from '@tanstack/react-router'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/coming-soon')({
  head: () =>
    seo({ title: 'Coming Soon', description: 'Placeholder description for /coming-soon.', path: '/coming-soon' }),
  component: ComingSoonPage,
})

function ComingSoonPage() {
  return (
    <section className="container-page py-20">
      <h1 className="text-h1 font-bold">coming-soon</h1>
    </section>
  )
}
