import { site } from '~/site'

/** In the route tree every page loads, so it must not bring the desk's components with it. */
export function deskHead(title: string) {
  return {
    meta: [{ title: `${title} | ${site.name} desk` }, { name: 'robots', content: 'noindex, nofollow' }],
  }
}
