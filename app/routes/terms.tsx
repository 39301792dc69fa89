import { createFileRoute } from '@tanstack/react-router'
import { LegalDocument } from '~/components/sections/LegalDocument'
import { metaFor } from '~/content/pages'
import { termsPage } from '~/content/terms'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/terms')({
  head: () => seo(metaFor('/terms')),
  component: TermsPage,
})

function TermsPage() {
  return <LegalDocument page={termsPage} />
}
