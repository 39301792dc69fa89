import { createFileRoute } from '@tanstack/react-router'
import { seo } from '~/lib/seo'

export const Route = createFileRoute('/products')({
  head: () => seo({ title: 'Products', description: 'Placeholder description for /products.', path: '/products' }),
  component: ProductsPage,
})

function ProductsPage() {
  return (
    <section className="container-page py-20">
      <h1 className="text-h1 font-bold">products</h1>
    </section>
  )
}
