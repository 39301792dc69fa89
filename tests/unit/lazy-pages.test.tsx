import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { lazyWithFallback } from '~/components/lazy-pages'

function Page({ name }: { name: string }) {
  return <h1>Designed page for {name}</h1>
}

function Plain({ name }: { name: string }) {
  return <h1>Plain page for {name}</h1>
}

describe('pages loaded only when shown (404 and error)', () => {
  it('shows the designed page once its chunk has loaded, with the props it was given', async () => {
    const Lazy = lazyWithFallback(() => Promise.resolve(Page), Plain)
    render(<Lazy name="visitor" />)
    expect(await screen.findByRole('heading', { name: 'Designed page for visitor' })).toBeTruthy()
  })

  it('shows the plain page, not a blank one, when the chunk cannot be loaded', async () => {
    const Lazy = lazyWithFallback<{ name: string }>(
      () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
      Plain,
    )
    render(<Lazy name="visitor" />)
    expect(await screen.findByRole('heading', { name: 'Plain page for visitor' })).toBeTruthy()
  })
})
