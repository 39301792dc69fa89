import { createFileRoute } from '@tanstack/react-router'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/about')({
  head: () => seo({ title: 'About', description: 'Placeholder description for /about.', path: '/about' }),
  component: AboutPage,
})

function AboutPage() {
  return (
    <section className="container-page py-20">
      <h1 className="text-h1 font-bold">about</h1>
    </section>
  )
}
