import { createFileRoute } from '@tanstack/react-router'
import { ServiceDetailLayout } from '~/components/sections/ServiceDetailLayout'
import { webDevelopmentDetail } from '~/content/services'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/services/ai-web-development')({
  head: () => seo({ ...webDevelopmentDetail.seo, path: webDevelopmentDetail.service.path }),
  component: ServicesAiWebDevelopmentPage,
})

function ServicesAiWebDevelopmentPage() {
  return <ServiceDetailLayout detail={webDevelopmentDetail} />
}
