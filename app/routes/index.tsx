import { createFileRoute } from '@tanstack/react-router'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/')({
  head: () => seo({ description: 'Placeholder description for /.', path: '/' }),
  component: Home,
})

function Home() {
  return (
    <section className="container-page py-20">
      <h1 className="text-h1 font-bold">Innovate. Automate. Transform.</h1>
    </section>
  )
}
