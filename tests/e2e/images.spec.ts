import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect, test } from '@playwright/test'
import { pngTexts, SOURCE_KEYWORD } from '../../scripts/brand-assets'

/** Every file under a folder, as paths relative to it. */
const filesIn = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(png|ico|svg|webmanifest)$/.test(file))

test('npm run images renders what is committed in public/: the icons and every page’s share card, each fitting its card', async () => {
  test.setTimeout(180_000)
  const dir = mkdtempSync(join(tmpdir(), 'images-'))
  try {
    // Written to a folder of its own (IMAGES_OUT_DIR), not over the committed files.
    const { stdout } = await promisify(execFile)('npm', ['run', 'images'], {
      env: { ...process.env, IMAGES_OUT_DIR: dir },
    })
    expect(stdout).toContain('Share cards:')
    const rendered = filesIn(dir).sort()
    expect(rendered.length).toBeGreaterThan(12)
    for (const file of rendered) {
      const fresh = readFileSync(join(dir, file))
      const committed = readFileSync(join('public', file))
      if (/\.(svg|webmanifest)$/.test(file)) expect(fresh.equals(committed), file).toBe(true)
      // Pixels may differ by a shade between Chromium builds; the source and the words may not.
      else expect(pngTexts(fresh), file).toEqual(pngTexts(committed))
      if (file.startsWith('og/')) expect(pngTexts(fresh)[SOURCE_KEYWORD], file).toMatch(/^[0-9a-f]{64}$/)
    }
    expect(
      filesIn('public')
        .filter((file) => file.startsWith('og/') || !file.includes('/'))
        .sort(),
    ).toEqual(expect.arrayContaining(rendered))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
