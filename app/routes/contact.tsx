import { createFileRoute } from '@tanstack/react-router'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/contact')({
  head: () => seo({ title: 'Contact', description: 'Placeholder description for /contact.', path: '/contact' }),
  component: ContactPage,
})

function ContactPage() {
  return (
    <section className="container-page py-20">
      <h1 className="text-h1 font-bold">contact</h1>
    </section>
  )
}
