import { contentSignals, site } from '~/site'
import { facts } from './facts'
import { companyPlace, type LegalPage } from './legal'

const allowed = (signal: keyof typeof contentSignals, yes: string, no: string) =>
  contentSignals[signal] === 'yes' ? yes : no

export const termsPage: LegalPage = {
  title: 'Terms of Service',
  updated: '2026-11-26',
  intro: `These terms apply to your use of this website, operated by ${site.legalName} (“${site.name}”, “we”) of ${companyPlace}. By using the site you accept them. They do not cover work we do for clients, which is always agreed in a separate written contract.`,
  sections: [
    {
      title: 'Information on this site',
      paragraphs: [
        'The pages describe our services and products for general information. They are not an offer or a binding quotation: scope, prices and timelines are agreed in writing for each engagement. We keep the content accurate and current, but it may change without notice.',
      ],
    },
    {
      title: 'Products in development',
      paragraphs: [
        `${site.product.name} and the other products described here are in development. Features, plans and launch dates may change before they become available, and any use of them will be governed by their own terms.`,
      ],
    },
    {
      title: 'Enquiries',
      paragraphs: [
        'Sending us a message through the contact form does not create a contract or an obligation on either side. Please do not send confidential information through the form; if a project needs it, we will agree a confidentiality arrangement first. The Privacy Policy explains how we handle what you send.',
      ],
    },
    {
      title: 'Intellectual property',
      paragraphs: [
        `The text, illustrations, logos and code of this website belong to ${site.legalName} unless stated otherwise. You may view, share links to and quote the pages with attribution; please ask us before reusing anything else.`,
      ],
    },
    {
      title: 'Automated use',
      paragraphs: [
        `Our robots.txt file states what automated readers (crawlers, search engines and AI services) may do with these pages, as a Content-Signal line (search=${contentSignals.search}, ai-input=${contentSignals['ai-input']}, ai-train=${contentSignals['ai-train']}). It means:`,
      ],
      list: [
        allowed(
          'search',
          'search: yes. Search engines may index the pages and show links to them with short excerpts;',
          'search: no. The pages may not be indexed for search results;',
        ),
        allowed(
          'ai-input',
          'ai-input: yes. An AI service may read a page to answer a question about it, at the time of the question, quoting it with a link;',
          'ai-input: no. The pages may not be used as input to an AI model’s answers;',
        ),
        allowed(
          'ai-train',
          'ai-train: yes. The pages may be used to train or fine-tune AI models.',
          'ai-train: no. The pages may not be used to train or fine-tune AI models.',
        ),
      ],
    },
    {
      title: 'Links to other sites',
      paragraphs: [
        'Links to other websites, including our social media profiles, are provided for convenience. We are not responsible for the content or the privacy practices of those sites.',
      ],
    },
    {
      title: 'Acceptable use',
      paragraphs: [
        'Do not use this website to send spam or unlawful content, to attempt unauthorised access, or to disrupt the site or the services it runs on.',
      ],
    },
    {
      title: 'Liability',
      paragraphs: [
        'The website is provided “as is”. To the extent the law allows, we are not liable for any loss arising from the use of, or inability to use, this website or from reliance on its content. Nothing in these terms limits liability that cannot be limited by law.',
      ],
    },
    {
      title: 'Governing law',
      paragraphs: [
        `These terms are governed by ${facts.governingLaw}. Disputes are subject to the jurisdiction of ${facts.jurisdiction}.`,
      ],
    },
    {
      title: 'Contact',
      paragraphs: [`Questions about these terms: write to ${site.email}.`],
    },
  ],
}
