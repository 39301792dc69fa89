import { linkStyle } from './desk-ui'

export function SourcesLink() {
  return (
    <p className="container-page mt-4">
      <a href="/admin/sources" className={linkStyle}>
        Where enquiries came from (last 30 and 90 days)
      </a>
    </p>
  )
}
