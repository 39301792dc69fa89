// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { parseSearch, stringifySearch } from '../../app/lib/search-params'

describe('search params, as the address bar and a GET form have them', () => {
  it('reads every value as the string it is, numbers and quotes included', () => {
    expect(parseSearch('?q=12345678&page=2&until=1764000000&x=%22a%22')).toEqual({
      q: '12345678',
      page: '2',
      until: '1764000000',
      x: '"a"',
    })
  })

  it('writes what it reads back unchanged, as a GET form encodes it, so a link is served as sent', () => {
    for (const query of [
      '?q=12345678',
      '?id=20261124-ab_c-D&until=1764000000&sig=Zm9v-YmFy_',
      '?q=Asha+Rao&status=failed',
    ])
      expect(stringifySearch(parseSearch(query))).toBe(query)
    expect(stringifySearch(parseSearch('?email=asha%40client.example'))).toBe('?email=asha%40client.example')
  })

  it('leaves out what is unset, and writes numbers as digits', () => {
    expect(stringifySearch({ status: undefined, q: 'x', page: 2, owner: null })).toBe('?q=x&page=2')
    expect(stringifySearch({})).toBe('')
  })
})
