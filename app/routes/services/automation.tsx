import { createFileRoute } from '@tanstack/react-router'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/services/automation')({
  head: () =>
    seo({
      title: 'Services Automation',
      description: 'Placeholder description for /services/automation.',
      path: '/services/automation',
    }),
  component: ServicesAutomationPage,
})

function ServicesAutomationPage() {
  return (
    <section className="container-page py-20">
      <h1 className="text-h1 font-bold">services/automation</h1>
    </section>
  )
}
