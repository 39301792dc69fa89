// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { pageDocument, pages } from '~/content/pages'
import { llmsTxt } from '~/lib/llms-txt'
import { toMarkdown } from '~/lib/markdown'
import { markdownPath } from '~/lib/seo'
import { llmsTxtAnswer, markdownTwin } from '~/server/ai-pages.server'
import { site } from '~/site'

const request = (path: string, method = 'GET') => new Request(`https://aksharalabs.example${path}`, { method })

describe('Markdown twins', () => {
  it('are at the page’s path with .md appended, and /index.html.md for the home page (the llms.txt proposal)', () => {
    expect(markdownPath('/')).toBe('/index.html.md')
    expect(markdownPath('/services/devops')).toBe('/services/devops.md')
  })

  it('each starts its page with one h1, the page’s heading', async () => {
    for (const { path } of pages) {
      const doc = await pageDocument(path)
      const h1s = doc.blocks.filter((b) => b.kind === 'heading' && b.level === 1)
      expect(h1s, path).toEqual([{ kind: 'heading', level: 1, text: doc.heading }])
    }
  })

  it('writes links absolute on the canonical origin, anchors on the page, and escapes Markdown in text', () => {
    const markdown = toMarkdown({
      path: '/products',
      heading: 'x',
      cardLine: 'x',
      blocks: [
        { kind: 'paragraph', text: ['5 * 3 = [fifteen] <b>_', { text: 'Features', href: '#features' }] },
        { kind: 'list', items: [[{ text: 'Contact', href: '/contact?subject=devops' }], ['mail me']] },
      ],
    })
    expect(markdown).toBe(
      `5 \\* 3 = \\[fifteen\\] \\<b\\>\\_[Features](${site.url}/products#features)\n\n- [Contact](${site.url}/contact?subject=devops)\n- mail me\n`,
    )
  })

  it('are answered for GET and HEAD only, at their own paths, as public, cacheable text/markdown naming the page as canonical', async () => {
    const twin = await markdownTwin(request('/services/devops.md'))
    expect(twin?.status).toBe(200)
    expect(Object.fromEntries(twin?.headers ?? [])).toMatchObject({
      'content-type': 'text/markdown; charset=utf-8',
      'cache-control': 'public, max-age=3600',
      link: `<${site.url}/services/devops>; rel="canonical"`,
    })
    expect(await twin?.text()).toBe(toMarkdown(await pageDocument('/services/devops')))
    expect(await (await markdownTwin(request('/index.html.md')))?.text()).toContain('# Innovate Automate Transform')
    expect(await (await markdownTwin(request('/services/devops.md', 'HEAD')))?.text()).toBe('')
    expect(markdownTwin(request('/services/devops.md', 'POST'))).toBeNull()
    expect(markdownTwin(request('/services/devops'))).toBeNull()
    expect(markdownTwin(request('/index.md'))).toBeNull()
    expect(markdownTwin(request('/admin.md'))).toBeNull()
  })
})

describe('llms.txt', () => {
  it('is text, answered from memory the same each time', async () => {
    const first = await llmsTxtAnswer(request('/llms.txt'))
    expect(first.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(await first.text()).toBe(llmsTxt())
    expect(await (await llmsTxtAnswer(request('/llms.txt'))).text()).toBe(llmsTxt())
  })
})
