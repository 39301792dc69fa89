import { site } from '~/site'

/**
 * Head tags of every inbox page: a title, and kept out of search results. Its own module: head()
 * stays in the route tree every page loads, so it must not bring the inbox's components with it.
 */
export function deskHead(title: string) {
  return {
    meta: [{ title: `${title} | ${site.name} inbox` }, { name: 'robots', content: 'noindex, nofollow' }],
  }
}
