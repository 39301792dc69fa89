import { createFileRoute } from '@tanstack/react-router'
import { ServiceDetailLayout } from '~/components/sections/ServiceDetailLayout'
import { aiSolutionsDetail } from '~/content/service-pages/ai-solutions'
import { serviceHead } from '~/lib/structured-data'

export const Route = createFileRoute('/services/ai-solutions')({
  head: () => serviceHead('/services/ai-solutions'),
  component: ServicesAiSolutionsPage,
})

function ServicesAiSolutionsPage() {
  return <ServiceDetailLayout detail={aiSolutionsDetail} />
}
