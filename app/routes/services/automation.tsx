import { createFileRoute } from '@tanstack/react-router'
import { ServiceDetailLayout } from '~/components/sections/ServiceDetailLayout'
import { automationDetail } from '~/content/service-pages/automation'
import { serviceHead } from '~/lib/structured-data'

export const Route = createFileRoute('/services/automation')({
  head: () => serviceHead('/services/automation'),
  component: ServicesAutomationPage,
})

function ServicesAutomationPage() {
  return <ServiceDetailLayout detail={automationDetail} />
}
