import { createFileRoute } from '@tanstack/react-router'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/services/devops')({
  head: () =>
    seo({
      title: 'Services Devops',
      description: 'Placeholder description for /services/devops.',
      path: '/services/devops',
    }),
  component: ServicesDevopsPage,
})

function ServicesDevopsPage() {
  return (
    <section className="container-page py-20">
      <h1 className="text-h1 font-bold">services/devops</h1>
    </section>
  )
}
