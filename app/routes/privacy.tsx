import { createFileRoute } from '@tanstack/react-router'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/privacy')({
  head: () => seo({ title: 'Privacy', description: 'Placeholder description for /privacy.', path: '/privacy' }),
  component: PrivacyPage,
})

function PrivacyPage() {
  return (
    <section className="container-page py-20">
      <h1 className="text-h1 font-bold">privacy</h1>
    </section>
  )
}
