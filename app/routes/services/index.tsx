import { createFileRoute } from '@tanstack/react-router'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/services/')({
  head: () => seo({ title: 'Services', description: 'Placeholder description for /services.', path: '/services' }),
  component: ServicesIndexPage,
})

function ServicesIndexPage() {
  return (
    <section className="container-page py-20">
      <h1 className="text-h1 font-bold">services/index</h1>
    </section>
  )
}
