import { createFileRoute } from '@tanstack/react-router'
import { ServiceDetailLayout } from '~/components/sections/ServiceDetailLayout'
import { automationDetail } from '~/content/services'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/services/automation')({
  head: () => seo({ ...automationDetail.seo, path: automationDetail.service.path }),
  component: ServicesAutomationPage,
})

function ServicesAutomationPage() {
  return <ServiceDetailLayout detail={automationDetail} />
}
