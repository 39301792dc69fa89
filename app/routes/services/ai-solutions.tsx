import { createFileRoute } from '@tanstack/react-router'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/services/ai-solutions')({
  head: () =>
    seo({
      title: 'Services Ai Solutions',
      description: 'Placeholder description for /services/ai-solutions.',
      path: '/services/ai-solutions',
    }),
  component: ServicesAiSolutionsPage,
})

function ServicesAiSolutionsPage() {
  return (
    <section className="container-page py-20">
      <h1 className="text-h1 font-bold">services/ai-solutions</h1>
    </section>
  )
}
