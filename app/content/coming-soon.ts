import { site } from '~/site'

/** The page the product's links lead to until its own website opens. */
export const comingSoonPage = {
  eyebrow: site.product.name,
  title: 'Coming Soon',
  text: "We're putting the final touches on our product website. It's going to be worth the wait!",
  back: 'Go Back Home',
} as const
