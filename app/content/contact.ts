import { site } from '~/site'

/** The target of `/contact#contact-form` links, in the page and its Markdown twin. */
export const FORM_CONTAINER_ID = 'contact-form'

export const contactPage = {
  title: 'Get In Touch',
  form: { title: 'Send us a message' },
  intro:
    'Have a project in mind, a system that needs attention, or a question about our work? Send us a message and an engineer, not a sales script, will reply.',
  info: {
    title: 'Contact Information',
    email: { label: 'Email', hint: 'For projects, partnerships and questions' },
    phone: { label: 'Phone', hint: 'To speak with us directly' },
    location: { label: 'Location', hint: `${site.location.region}, ${site.location.country}` },
  },
  follow: { title: 'Follow Us' },
  promo: {
    title: 'Explore Our Flagship AI Product',
    text: `${site.product.name} is a voice assistant with animated avatars that embeds into any website in under 30 minutes.`,
    label: `Visit ${site.product.name}`,
  },
} as const

/** In the contact page's order. */
export const socialLinks = [
  { network: 'twitter', label: 'Twitter', href: site.social.twitter },
  { network: 'facebook', label: 'Facebook', href: site.social.facebook },
  { network: 'linkedin', label: 'LinkedIn', href: site.social.linkedin },
  { network: 'github', label: 'GitHub', href: site.social.github },
] as const

export type SocialNetwork = (typeof socialLinks)[number]['network']
