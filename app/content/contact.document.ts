import { site } from '~/site'
import { contactPage, FORM_CONTAINER_ID, socialLinks } from './contact'
import { h, link, type PageDocument, p, ul } from './document'

export function contactDocument(): PageDocument {
  const { info, follow, promo } = contactPage
  return {
    heading: contactPage.title,
    cardLine: contactPage.intro,
    blocks: [
      h(1, contactPage.title),
      p(contactPage.intro),
      // The form itself (fields and button) cannot be written in Markdown: its heading links to it.
      h(2, link(contactPage.form.title, `#${FORM_CONTAINER_ID}`)),
      h(2, info.title),
      h(3, info.email.label),
      p(link(site.email, `mailto:${site.email}`)),
      p(info.email.hint),
      h(3, info.phone.label),
      p(link(site.phone, `tel:${site.phoneE164}`)),
      p(info.phone.hint),
      h(3, info.location.label),
      p(site.location.display),
      p(info.location.hint),
      h(2, follow.title),
      ul(socialLinks.map((social) => [link(`${site.name} on ${social.label}`, social.href)])),
      h(2, promo.title),
      p(promo.text),
      p(link(promo.label, '/coming-soon')),
    ],
  }
}
