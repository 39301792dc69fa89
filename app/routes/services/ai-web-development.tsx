import { createFileRoute } from '@tanstack/react-router'
import { ServiceDetailLayout } from '~/components/sections/ServiceDetailLayout'
import { webDevelopmentDetail } from '~/content/service-pages/ai-web-development'
import { serviceHead } from '~/lib/structured-data'

export const Route = createFileRoute('/services/ai-web-development')({
  head: () => serviceHead('/services/ai-web-development'),
  component: ServicesAiWebDevelopmentPage,
})

function ServicesAiWebDevelopmentPage() {
  return <ServiceDetailLayout detail={webDevelopmentDetail} />
}
