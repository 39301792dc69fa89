import { createFileRoute } from '@tanstack/react-router'
import { ServiceDetailLayout } from '~/components/sections/ServiceDetailLayout'
import { devopsDetail } from '~/content/service-pages/devops'
import { serviceHead } from '~/lib/structured-data'

export const Route = createFileRoute('/services/devops')({
  head: () => serviceHead('/services/devops'),
  component: ServicesDevopsPage,
})

function ServicesDevopsPage() {
  return <ServiceDetailLayout detail={devopsDetail} />
}
