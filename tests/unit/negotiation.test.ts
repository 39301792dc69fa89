import { describe, expect, it } from 'vitest'
import { acceptingHtml, markdownTokens, prefersMarkdown } from '~/server/negotiation'

// What browsers and tools send, as they send it.
const CHROMIUM =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7'
const FIREFOX = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'
const SAFARI = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

describe('which representation an Accept header prefers', () => {
  it.each([
    ['text/markdown', true],
    ['text/markdown, text/html;q=0.9', true],
    ['text/markdown;q=0.9, text/html;q=0.9', true],
    ['text/html, text/markdown', true],
    ['text/markdown, */*', true],
    ['TEXT/Markdown', true],
    ['text/markdown;charset=utf-8', true],
    ['text/markdown;q=0.5, text/html', false],
    ['text/html;q=0.8, text/markdown;q=0.9', true],
    ['text/markdown;q=0', false],
    ['text/markdown;q=0, text/html;q=0', false],
    ['text/markdown;q=2', false],
    ['text/markdown;q=abc', false],
    ['text/*, text/html;q=0.1', false],
    ['text/markdown;q=0.2, text/*;q=0.5', false],
    ['text/markdown;q=0.5, text/*;q=0.2', true],
    ['*/*', false],
    ['text/*', false],
    ['', false],
    ['application/json', false],
    [CHROMIUM, false],
    [FIREFOX, false],
    [SAFARI, false],
    [null, false],
  ])('%j → Markdown: %s', (accept, markdown) => {
    expect(prefersMarkdown(accept)).toBe(markdown)
  })
})

describe('a request Start would refuse with 406', () => {
  const get = (accept?: string, method = 'GET') =>
    new Request('https://example.com/about', { method, headers: accept === undefined ? {} : { Accept: accept } })

  it('gets the wildcard at weight 0 when it names neither HTML nor the wildcard', () => {
    const request = acceptingHtml(get('application/json'))
    expect(request.headers.get('Accept')).toBe('application/json, */*;q=0')
    // The header still means what the client sent: Markdown was not asked for, and is not given.
    expect(prefersMarkdown(request.headers.get('Accept'))).toBe(false)
    expect(prefersMarkdown(acceptingHtml(get('text/markdown')).headers.get('Accept'))).toBe(true)
  })

  it('is left alone otherwise', () => {
    for (const request of [get(), get(CHROMIUM), get('*/*'), get('text/html'), get('application/json', 'POST')]) {
      expect(acceptingHtml(request)).toBe(request)
    }
  })
})

it('estimates tokens at four characters each, rounded up', () => {
  expect(markdownTokens('')).toBe(0)
  expect(markdownTokens('# Hi')).toBe(1)
  expect(markdownTokens('x'.repeat(4001))).toBe(1001)
})
