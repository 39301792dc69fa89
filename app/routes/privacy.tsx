import { createFileRoute } from '@tanstack/react-router'
import { LegalDocument } from '~/components/sections/LegalDocument'
import { privacyPage } from '~/content/legal'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/privacy')({
  head: () => seo({ ...privacyPage.seo, path: '/privacy' }),
  component: PrivacyPage,
})

function PrivacyPage() {
  return <LegalDocument page={privacyPage} />
}
