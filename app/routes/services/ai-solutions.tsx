import { createFileRoute } from '@tanstack/react-router'
import { ServiceDetailLayout } from '~/components/sections/ServiceDetailLayout'
import { metaFor } from '~/content/meta'
import { aiSolutionsDetail } from '~/content/services'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/services/ai-solutions')({
  head: () => seo(metaFor('/services/ai-solutions')),
  component: ServicesAiSolutionsPage,
})

function ServicesAiSolutionsPage() {
  return <ServiceDetailLayout detail={aiSolutionsDetail} />
}
