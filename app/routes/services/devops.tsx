import { createFileRoute } from '@tanstack/react-router'
import { ServiceDetailLayout } from '~/components/sections/ServiceDetailLayout'
import { metaFor } from '~/content/meta'
import { devopsDetail } from '~/content/services'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/services/devops')({
  head: () => seo(metaFor('/services/devops')),
  component: ServicesDevopsPage,
})

function ServicesDevopsPage() {
  return <ServiceDetailLayout detail={devopsDetail} />
}
