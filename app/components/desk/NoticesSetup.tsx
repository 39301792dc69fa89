import type { NoticeSetupLine } from '~/notices'

/** Inside the set-up panel's `<dl>`. */
export function NoticesSetupRows({ lines }: { lines: readonly NoticeSetupLine[] }) {
  return (
    <>
      {lines.map((line) => (
        <div key={line.id} className="contents">
          <dt className="font-medium text-fg">{line.label}</dt>
          <dd data-testid={line.id}>{line.value}</dd>
        </div>
      ))}
    </>
  )
}
