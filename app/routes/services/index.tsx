import { createFileRoute } from '@tanstack/react-router'
import { CallToAction } from '~/components/sections/CallToAction'
import { ContactButton } from '~/components/sections/ContactButton'
import { PageHero } from '~/components/sections/PageHero'
import { ServiceBlock } from '~/components/sections/ServiceBlock'
import { metaFor } from '~/content/pages'
import { services } from '~/content/services'
import { servicesPage } from '~/content/services-page'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/services/')({
  head: () => seo(metaFor('/services')),
  component: ServicesPage,
})

/** Drawn from the page's symbols: a phone fetches the next two lazy images before the first paint anyway,
 * which would be charged to LCP (docs/performance.md, "Illustrations"). */
const DRAWN_IN_PAGE = 3

function ServicesPage() {
  const { cta } = servicesPage
  return (
    <>
      <PageHero eyebrow={servicesPage.eyebrow} title={servicesPage.title} lead={<p>{servicesPage.lead}</p>} />
      <div className="container-page mt-16 space-y-24 sm:mt-20 lg:space-y-32">
        {services.map((service, index) => (
          <ServiceBlock
            key={service.slug}
            service={service}
            reverse={index % 2 === 1}
            priority={index < DRAWN_IN_PAGE}
          />
        ))}
      </div>
      <CallToAction title={cta.title} text={cta.text}>
        <ContactButton>{cta.label}</ContactButton>
      </CallToAction>
    </>
  )
}
