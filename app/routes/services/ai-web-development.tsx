import { createFileRoute } from '@tanstack/react-router'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/services/ai-web-development')({
  head: () =>
    seo({
      title: 'Services Ai Web Development',
      description: 'Placeholder description for /services/ai-web-development.',
      path: '/services/ai-web-development',
    }),
  component: ServicesAiWebDevelopmentPage,
})

function ServicesAiWebDevelopmentPage() {
  return (
    <section className="container-page py-20">
      <h1 className="text-h1 font-bold">services/ai-web-development</h1>
    </section>
  )
}
