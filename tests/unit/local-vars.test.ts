import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { assignedNames, documentedNames, localVariables, writeBesideBuild } from '../../scripts/local-vars.mjs'
import { scratchDir } from '../support/scratch'

describe('what npm start loads from .dev.vars', () => {
  it('reads the names a dotenv file assigns, not its comments', () => {
    expect(assignedNames('# ACCESS_AUD=x\nACCESS_AUD=abc\n\nexport CONTACT_DELIVERY = none\nA=1\nA=2\n')).toEqual([
      'ACCESS_AUD',
      'CONTACT_DELIVERY',
      'A',
    ])
  })

  it('reads the names .dev.vars.example documents, commented out or not', () => {
    expect(
      documentedNames('# Secret.\nCONTACT_FORM_ACCESS_KEY=\n# CONTACT_DELIVERY=none\n# prose = not a name\n'),
    ).toEqual(['CONTACT_FORM_ACCESS_KEY', 'CONTACT_DELIVERY'])
  })

  it('declares a documented secret the configuration does not, and names what the site does not read', () => {
    const dir = scratchDir('local-vars')
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text)
      return join(dir, name)
    }
    const config = file(
      'wrangler.json',
      JSON.stringify({ vars: { ACCESS_AUD: '' }, secrets: { required: ['CONTACT_FORM_ACCESS_KEY'] } }),
    )
    const example = file('example', 'CONTACT_FORM_ACCESS_KEY=\n# ACCESS_AUD=\n# TURNSTILE_SECRET_KEY=\n')
    const vars = file('.dev.vars', 'ACCESS_AUD=a\nTURNSTILE_SECRET_KEY=s\nCONTACT_FORM_ACCESS_KEY=k\nACESS_AUD=typo\n')
    expect(localVariables(vars, config, example)).toEqual({
      names: ['ACCESS_AUD', 'TURNSTILE_SECRET_KEY', 'CONTACT_FORM_ACCESS_KEY', 'ACESS_AUD'],
      addSecrets: ['TURNSTILE_SECRET_KEY'],
      unknown: ['ACESS_AUD'],
    })
    expect(localVariables(join(dir, 'missing'), config, example)).toEqual({ names: [], addSecrets: [], unknown: [] })
  })
})

describe('a configuration written beside the build', () => {
  it('is written whole when new or changed, left alone (not even touched) when the same, and leaves nothing else beside it', async () => {
    const dir = scratchDir('beside-build')
    const path = join(dir, 'wrangler.local-8787.json')
    writeBesideBuild(path, '{"a":1}')
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}')
    const written = statSync(path).mtimeMs
    await new Promise((resolve) => setTimeout(resolve, 20))
    writeBesideBuild(path, '{"a":1}')
    expect(statSync(path).mtimeMs).toBe(written)
    writeBesideBuild(path, '{"a":2}')
    expect(readFileSync(path, 'utf8')).toBe('{"a":2}')
    // Only the file itself, and the staging folder wrangler's watcher ignores (now empty).
    expect(readdirSync(dir).sort()).toEqual(['.wrangler', 'wrangler.local-8787.json'])
    expect(readdirSync(join(dir, '.wrangler', 'staging'))).toEqual([])
  })
})
