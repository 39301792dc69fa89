import { createFileRoute } from '@tanstack/react-router'
import { ServiceDetailLayout } from '~/components/sections/ServiceDetailLayout'
import { metaFor } from '~/content/meta'
import { webDevelopmentDetail } from '~/content/services'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/services/ai-web-development')({
  head: () => seo(metaFor('/services/ai-web-development')),
  component: ServicesAiWebDevelopmentPage,
})

function ServicesAiWebDevelopmentPage() {
  return <ServiceDetailLayout detail={webDevelopmentDetail} />
}
