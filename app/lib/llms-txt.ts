import { aboutPage } from '~/content/about'
import { homePage } from '~/content/home'
import { LLMS_SECTIONS, type PagePath, pageAt, pageDocument, pages } from '~/content/pages'
import { absoluteUrl, markdownPath } from '~/lib/seo'
import { site } from '~/site'
import { toMarkdown } from './markdown'

/** /llms.txt and /llms-full.txt (https://llmstxt.org), from the page list and the content modules. */

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
  const sections = LLMS_SECTIONS.map((section) => {
    const entries = pages
      .filter((page) => page.llms === section)
      .map((page) => `- [${linkName(page.path)}](${absoluteUrl(markdownPath(page.path))}): ${page.description}`)
    return [`## ${section}`, '', ...entries].join('\n')
  })
  return `${[header(), ...sections].join('\n\n')}\n`
}

export async function llmsFullTxt(): Promise<string> {
  const documents = await Promise.all(
    pages.map(
      async (page) =>
        `---\n\nSource: ${absoluteUrl(page.path)}\n\n${toMarkdown(await pageDocument(page.path)).trimEnd()}`,
    ),
  )
  return `${[header(), ...documents].join('\n\n')}\n`
}
