import { expect, test } from '@playwright/test'

test('a page on www. is sent permanently to the same page on the apex', async ({ request }) => {
  const answer = await request.get('/services/devops?from=ad', {
    headers: { Host: 'www.aksharalabs.example' },
    maxRedirects: 0,
  })
  expect(answer.status()).toBe(308)
  expect(answer.headers().location).toBe('https://aksharalabs.example/services/devops?from=ad')
  expect(answer.headers()['strict-transport-security']).toBeTruthy()

  const post = await request.post('/api/contact', {
    headers: { Host: 'www.aksharalabs.example', 'Content-Type': 'application/x-www-form-urlencoded' },
    data: 'name=x',
    maxRedirects: 0,
  })
  expect(post.status()).toBe(308)
  expect(post.headers().location).toBe('https://aksharalabs.example/api/contact')
})

test('the apex itself is served, not redirected', async ({ request }) => {
  const answer = await request.get('/services', { headers: { Host: 'aksharalabs.example' }, maxRedirects: 0 })
  expect(answer.status()).toBe(200)
})

test('HTML may be kept by the browser only, revalidated on every use, and never by a shared cache', async ({
  request,
}) => {
  for (const path of ['/', '/about', '/contact', '/privacy']) {
    const page = await request.get(path)
    const cacheControl = page.headers()['cache-control']
    expect(cacheControl, path).toBe('private, no-cache')
    expect(cacheControl).not.toMatch(/s-maxage|public|stale-while-revalidate/)
  }
  // Served twice (the second time from the per-isolate page cache): the same header.
  const again = await request.get('/about')
  expect(again.headers()['cache-control']).toBe('private, no-cache')
})
