import { createFileRoute } from '@tanstack/react-router'
import { ServiceDetailLayout } from '~/components/sections/ServiceDetailLayout'
import { devopsDetail } from '~/content/services'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/services/devops')({
  head: () => seo({ ...devopsDetail.seo, path: devopsDetail.service.path }),
  component: ServicesDevopsPage,
})

function ServicesDevopsPage() {
  return <ServiceDetailLayout detail={devopsDetail} />
}
