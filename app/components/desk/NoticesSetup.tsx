import type { NoticeSetupLine } from '~/notices'

/** The notices' rows of the inbox's set-up panel (inside its `<dl>`): the digest, the alerts, the receipt. */
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
