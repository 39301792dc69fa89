import { createFileRoute } from '@tanstack/react-router'
import { LegalDocument } from '~/components/sections/LegalDocument'
import { termsPage } from '~/content/legal'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/terms')({
  head: () => seo({ ...termsPage.seo, path: '/terms' }),
  component: TermsPage,
})

function TermsPage() {
  return <LegalDocument page={termsPage} />
}
