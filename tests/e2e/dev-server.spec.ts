import { type ChildProcess, spawn } from 'node:child_process'
import { expect, test } from '@playwright/test'
import { PORT_BASE } from '../support/servers'
import { waitUntilServing } from '../support/site-server'

/** `npm run dev` (Vite with the Worker running in workerd) serves the site, server code included. */
test.describe('the development server', () => {
  test.describe.configure({ mode: 'serial' })
  const port = PORT_BASE + 5
  const origin = `http://localhost:${port}`
  let server: ChildProcess
  let output = ''

  test.beforeAll(async () => {
    test.setTimeout(150_000)
    server = spawn('npx', ['vite', 'dev', '--port', String(port), '--strictPort'], {
      detached: true,
      env: { ...process.env, BROWSER: 'none' },
    })
    server.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    server.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    await waitUntilServing(origin, 120_000)
  })

  // Wait until it has exited: while Vite shuts down it still holds its ports (its inspector's
  // among them), and a wrangler server started next in this worker found its address in use.
  test.afterAll(async () => {
    if (!server?.pid || server.exitCode !== null) return
    const exited = new Promise((resolve) => server.once('exit', resolve))
    process.kill(-server.pid, 'SIGTERM')
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
  })

  test('renders pages, server routes and the 404 on workerd', async () => {
    test.setTimeout(90_000)
    const pages: [string, number, string][] = [
      ['/', 200, '<h1'],
      ['/contact', 200, 'Send us a message'],
      ['/services/devops', 200, 'Architect Your Solution'],
      ['/sitemap.xml', 200, '<urlset'],
      ['/no-such-page', 404, 'Page not found'],
    ]
    for (const [path, status, text] of pages) {
      const response = await fetch(`${origin}${path}`)
      expect(response.status, `${path}\n${output.slice(-2000)}`).toBe(status)
      expect(await response.text()).toContain(text)
    }
  })
})
