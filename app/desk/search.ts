/** A desk page's search fields as text, each absent when the URL does not carry it. */
export const searchText = <K extends string>(search: Record<string, unknown>, ...keys: K[]) =>
  Object.fromEntries(keys.flatMap((key) => (search[key] === undefined ? [] : [[key, String(search[key])]]))) as {
    [P in K]?: string
  }
