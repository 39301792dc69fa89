import { createFileRoute } from '@tanstack/react-router'
import { LegalDocument } from '~/components/sections/LegalDocument'
import { metaFor } from '~/content/pages'
import { privacyPage } from '~/content/privacy'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/privacy')({
  head: () => seo(metaFor('/privacy')),
  component: PrivacyPage,
})

function PrivacyPage() {
  return <LegalDocument page={privacyPage} />
}
