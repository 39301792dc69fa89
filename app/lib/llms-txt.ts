import { aboutPage } from '~/content/about'
import { homePage } from '~/content/home'
import { type PagePath, pageAt, pages } from '~/content/pages'
import { absoluteUrl, markdownPath } from '~/lib/seo'
import { site } from '~/site'
import { toMarkdown } from './markdown'
import { pageDocument } from './page-documents'

/** /llms.txt and /llms-full.txt (https://llmstxt.org), from the page list and the content modules. */

type Section = 'Services' | 'Products' | 'Company' | 'Optional'

/** "Optional" is the proposal's name for links a short context may skip. */
const SECTIONS: readonly Section[] = ['Services', 'Products', 'Company', 'Optional']

/** A Record over the page list: a new page without one fails the type check. */
const SECTION_OF: Record<PagePath, Section> = {
  '/': 'Company',
  '/services': 'Services',
  '/services/devops': 'Services',
  '/services/ai-solutions': 'Services',
  '/services/automation': 'Services',
  '/services/ai-web-development': 'Services',
  '/products': 'Products',
  '/coming-soon': 'Products',
  '/about': 'Company',
  '/contact': 'Company',
  '/privacy': 'Optional',
  '/terms': 'Optional',
}

function linkName(path: PagePath): string {
  const page = pageAt(path)
  return 'title' in page ? page.title : site.name
}

function header(): string {
  return [
    `# ${site.name}`,
    '',
    `> ${pageAt('/').description}`,
    '',
    `${homePage.hero.blurb} ${aboutPage.lead}`,
    '',
    `Every page below is also published as Markdown, at its address with \`.md\` added (the home page at \`${markdownPath('/')}\`), with the same words as the page. [llms-full.txt](${absoluteUrl('/llms-full.txt')}) holds all of them in one file.`,
  ].join('\n')
}

export function llmsTxt(): string {
  const sections = SECTIONS.map((section) => {
    const entries = pages
      .filter((page) => SECTION_OF[page.path] === section)
      .map((page) => `- [${linkName(page.path)}](${absoluteUrl(markdownPath(page.path))}): ${page.description}`)
    return [`## ${section}`, '', ...entries].join('\n')
  })
  return `${[header(), ...sections].join('\n\n')}\n`
}

export function llmsFullTxt(): string {
  const documents = pages.map(
    (page) => `---\n\nSource: ${absoluteUrl(page.path)}\n\n${toMarkdown(pageDocument(page.path)).trimEnd()}`,
  )
  return `${[header(), ...documents].join('\n\n')}\n`
}
