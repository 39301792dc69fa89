import { linkStyle } from './desk-ui'

/** The inbox's way to `/admin/sources`: enquiries by source and by first page. */
export function SourcesLink() {
  return (
    <p className="container-page mt-4">
      <a href="/admin/sources" className={linkStyle}>
        Where enquiries came from (last 30 and 90 days)
      </a>
    </p>
  )
}
