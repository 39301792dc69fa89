import { createFileRoute } from '@tanstack/react-router'
import { ServiceDetailLayout } from '~/components/sections/ServiceDetailLayout'
import { aiSolutionsDetail } from '~/content/services'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/services/ai-solutions')({
  head: () => seo({ ...aiSolutionsDetail.seo, path: aiSolutionsDetail.service.path }),
  component: ServicesAiSolutionsPage,
})

function ServicesAiSolutionsPage() {
  return <ServiceDetailLayout detail={aiSolutionsDetail} />
}
