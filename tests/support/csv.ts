/**
 * The cells of a CSV text as the desk writes it (every field quoted, inner quotes doubled), in
 * order and unquoted. Line breaks inside a cell are kept, so the cells of a whole file come in rows
 * of the header's length.
 */
export function csvCells(text: string): string[] {
  return [...text.matchAll(/"((?:[^"]|"")*)"/g)].map((match) => (match[1] ?? '').replaceAll('""', '"'))
}
