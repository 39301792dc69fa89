import { createFileRoute } from '@tanstack/react-router'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/terms')({
  head: () => seo({ title: 'Terms', description: 'Placeholder description for /terms.', path: '/terms' }),
  component: TermsPage,
})

function TermsPage() {
  return (
    <section className="container-page py-20">
      <h1 className="text-h1 font-bold">terms</h1>
    </section>
  )
}
