import { createFileRoute } from '@tanstack/react-router'
import { ContactAside } from '~/components/contact/ContactAside'
import { DeferredContactForm } from '~/components/contact/DeferredContactForm'
import { loadContactFormCode } from '~/components/contact/form-code'
import { PageHero } from '~/components/sections/PageHero'
// The loader and search check stay in every page's route tree, so they skip `~/contact` and its validation.
import { loadContactForm } from '~/contact/form-state'
import { contactPage } from '~/content/contact'
import { metaFor } from '~/content/pages'
import { parseSubjectParam } from '~/content/subjects'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/contact')({
  validateSearch: parseSubjectParam,
  // The form's key and a no-JavaScript post's result; in the browser the form's code starts too.
  loader: () => {
    if (typeof document !== 'undefined') void loadContactFormCode()
    return loadContactForm()
  },
  head: () => seo(metaFor('/contact')),
  component: ContactPage,
})

function ContactPage() {
  const { subject } = Route.useSearch()
  const { result, idempotencyKey, turnstileSiteKey, source } = Route.useLoaderData()
  return (
    <>
      <PageHero title={contactPage.title} lead={<p>{contactPage.intro}</p>} />
      <div className="container-page mt-12 grid gap-8 lg:grid-cols-[minmax(0,1.5fr)_minmax(0,1fr)] lg:gap-10">
        <div className="min-w-0">
          <DeferredContactForm
            defaultSubject={subject}
            result={result}
            idempotencyKey={idempotencyKey}
            turnstileSiteKey={turnstileSiteKey}
            source={source}
          />
        </div>
        <ContactAside />
      </div>
    </>
  )
}
