import { createFileRoute } from '@tanstack/react-router'
import { ServiceDetailLayout } from '~/components/sections/ServiceDetailLayout'
import { metaFor } from '~/content/meta'
import { automationDetail } from '~/content/services'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/services/automation')({
  head: () => seo(metaFor('/services/automation')),
  component: ServicesAutomationPage,
})

function ServicesAutomationPage() {
  return <ServiceDetailLayout detail={automationDetail} />
}
