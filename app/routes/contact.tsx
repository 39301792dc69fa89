import { createFileRoute } from '@tanstack/react-router'
import { ContactForm } from '~/components/contact/ContactForm'
import { loadFormOutcome } from '~/contact/outcome'
import { parseSubjectParam } from '~/contact/subjects'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/contact')({
  validateSearch: parseSubjectParam,
  loader: () => ({ formOutcome: loadFormOutcome() }),
  head: () => seo({ title: 'Contact', description: 'Placeholder description for /contact.', path: '/contact' }),
  component: ContactPage,
})

function ContactPage() {
  const { subject } = Route.useSearch()
  const { formOutcome } = Route.useLoaderData()
  return (
    <section className="container-page py-20">
      <h1 className="text-h1 font-bold">contact</h1>
      <div className="mt-10 max-w-2xl">
        <ContactForm defaultSubject={subject} outcome={formOutcome} />
      </div>
    </section>
  )
}
