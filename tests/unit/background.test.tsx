import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Background } from '~/components/Background'

describe('decorative background', () => {
  it('draws 12 floating shapes and 6 blurred orbs, hidden from assistive technology, animated by classes only (the CSP allows no inline styles)', () => {
    const root = render(<Background />).getByTestId('decorative-background')
    expect(root.getAttribute('aria-hidden')).toBe('true')
    expect(root.querySelectorAll('[data-shape]')).toHaveLength(12)
    expect(root.querySelectorAll('[data-orb]')).toHaveLength(6)
    expect(root.querySelectorAll('[style]')).toHaveLength(0)
    for (const el of root.querySelectorAll('[data-shape]')) expect(el.getAttribute('class')).toContain('animate-float')
    for (const el of root.querySelectorAll('[data-orb]')) expect(el.getAttribute('class')).toContain('animate-drift')
  })
})
