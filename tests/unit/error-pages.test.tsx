import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { ErrorPage } from '~/components/ErrorPage'
import { lazyWithFallback } from '~/components/lazy-pages'
import { type ErrorKind, errorPages } from '~/content/error-pages'
import { PlainErrorPage } from '~/document/PlainErrorPage'

const KINDS = Object.keys(errorPages) as ErrorKind[]

/** The designed page needs a router (its links): a one-page app that shows it. */
function renderDesigned(kind: ErrorKind) {
  const root = createRootRoute({ component: () => <Outlet /> })
  const index = createRoute({
    getParentRoute: () => root,
    path: '/',
    component: () => <ErrorPage kind={kind} />,
  })
  const router = createRouter({
    routeTree: root.addChildren([index]),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  })
  return render(<RouterProvider router={router} />)
}

function expectWords(container: HTMLElement, kind: ErrorKind) {
  const words = errorPages[kind]
  const page = within(container)
  expect(page.getByRole('heading', { level: 1, name: words.title })).toBeTruthy()
  expect(page.getByText(words.eyebrow)).toBeTruthy()
  expect(page.getByText(words.body)).toBeTruthy()
  expect(page.getByRole('link', { name: words.home }).getAttribute('href')).toBe('/')
}

describe('the 404 and error pages (words in content/error-pages.ts)', () => {
  for (const kind of KINDS) {
    it(`${kind}: the designed page and its plain version say the same`, async () => {
      const designed = renderDesigned(kind)
      await screen.findByRole('heading', { level: 1 })
      expectWords(designed.container, kind)
      designed.unmount()

      const plain = render(<PlainErrorPage kind={kind} />)
      expectWords(plain.container, kind)
      for (const link of errorPages[kind].links) {
        expect(within(plain.container).getByRole('link', { name: link.label }).getAttribute('href')).toBe(link.to)
      }
    })
  }

  it('the designed 404 page links onwards to the main sections', async () => {
    const { container } = renderDesigned('not-found')
    await screen.findByRole('heading', { level: 1 })
    for (const link of errorPages['not-found'].links) {
      expect(
        within(container)
          .getByRole('link', { name: new RegExp(`^${link.label}`) })
          .getAttribute('href'),
      ).toBe(link.to)
    }
  })

  it('the designed error page loads the page anew on Try again', async () => {
    const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => {})
    renderDesigned('error')
    await userEvent.click(await screen.findByRole('button', { name: errorPages.error.retry }))
    expect(reload).toHaveBeenCalledOnce()
    reload.mockRestore()
  })
})

describe('pages loaded only when shown (404 and error)', () => {
  const Designed = ({ name }: { name: string }) => <h1>Designed page for {name}</h1>
  const Plain = ({ name }: { name: string }) => <h1>Plain page for {name}</h1>

  it('show the designed page once its chunk has loaded, with the props it was given', async () => {
    const Lazy = lazyWithFallback(() => Promise.resolve(Designed), Plain)
    render(<Lazy name="visitor" />)
    expect(await screen.findByRole('heading', { name: 'Designed page for visitor' })).toBeTruthy()
  })

  it('show the plain page, not a blank one, when the chunk cannot be loaded', async () => {
    const failed = new TypeError('Failed to fetch dynamically imported module')
    const Lazy = lazyWithFallback<{ name: string }>(() => Promise.reject(failed), Plain)
    render(<Lazy name="visitor" />)
    expect(await screen.findByRole('heading', { name: 'Plain page for visitor' })).toBeTruthy()
  })
})
