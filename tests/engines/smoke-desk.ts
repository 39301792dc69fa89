/** The smoke check of the desk, opened as docs/desk.md says (the token goes with every request). */
import { expect, it } from 'vitest'
import { hydrated, type SmokeContext, until } from './smoke'

export function deskChecks(s: SmokeContext) {
  it('opens the desk as documented: refused without the token; with it, lists the enquiries sent above and marks one handled', async () => {
    await s.page.open(`${s.site.origin}/admin`)
    expect(await s.page.run(() => document.querySelector('h1')?.textContent)).toBe('Not allowed')

    const operator = await s.engine.operator()
    const desk = operator.page
    await desk.open(`${operator.origin}/admin?q=${s.tag}`)
    await hydrated(desk)
    const list = await desk.run(() => ({
      heading: document.querySelector('h1')?.textContent,
      names: [...document.querySelectorAll('tbody tr td:nth-child(2)')].map((cell) => cell.textContent),
    }))
    // Newest first.
    expect(list).toEqual({ heading: 'Enquiries', names: [s.withoutScript.name, s.withScript.name] })

    const href = await desk.run(
      (wanted: string) =>
        [...document.querySelectorAll<HTMLAnchorElement>('tbody a')]
          .find((link) => link.textContent === wanted)
          ?.getAttribute('href') ?? '',
      s.withScript.name,
    )
    await desk.click(`tbody a[href="${href}"]`)
    await until(desk, 'the enquiry opens', (wanted: string) => document.querySelector('h1')?.textContent === wanted, [
      s.withScript.name,
    ])
    await hydrated(desk)
    expect(await desk.run(() => document.querySelector('[data-testid="message"]')?.textContent)).toBe(
      s.withScript.message,
    )
    await desk.click('form[action="/admin/actions"]:has(input[name="action"][value="handled"]) button')
    await until(
      desk,
      'the desk confirms',
      () => document.querySelector('[role="status"]')?.textContent?.includes('Marked handled'),
      [],
    )
    expect(await desk.run(() => document.body.textContent?.includes('by operator@aksharalabs.in'))).toBe(true)
  })
}
