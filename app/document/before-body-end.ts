/**
 * `html` with `markup` just before its last `</body>`, where the server adds the symbols a page
 * draws (icons, the logo's mark, illustrations); `html` as it is when it has no `</body>` or there
 * is nothing to add.
 */
export function beforeBodyEnd(html: string, markup: string): string {
  const end = html.lastIndexOf('</body>')
  if (end === -1 || markup === '') return html
  return `${html.slice(0, end)}${markup}${html.slice(end)}`
}
