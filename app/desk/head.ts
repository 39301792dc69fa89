import { privateHead } from '~/lib/seo'
import { site } from '~/site'

/** The desk routes' parts in the route tree every page loads (head, search), so they must not bring the desk's components with them. */
export const deskHead = (title: string) => privateHead(`${title} | ${site.name} desk`)
/** A desk page's search fields as text, each absent when the URL does not carry it. */
export const searchText = <K extends string>(search: Record<string, unknown>, ...keys: K[]) =>
  Object.fromEntries(keys.flatMap((key) => (search[key] === undefined ? [] : [[key, String(search[key])]]))) as {
    [P in K]?: string
  }
