import type { EnquirySource } from '~/desk'

const ROWS = [
  ['page', 'Sent from'],
  ['firstPage', 'First page of the visit'],
  ['referrerHost', 'Came from (site)'],
  ['utmSource', 'UTM source'],
  ['utmMedium', 'UTM medium'],
  ['utmCampaign', 'UTM campaign'],
] as const satisfies readonly (readonly [keyof EnquirySource, string])[]

/** Each value as recorded, or "not recorded". */
export function EnquirySourceDetails({ source }: { source: EnquirySource | undefined }) {
  return (
    <section aria-labelledby="source-title" className="container-page mt-10" data-testid="enquiry-source">
      <h2 id="source-title" className="text-h3 font-semibold text-fg">
        Where it came from
      </h2>
      <dl className="mt-4 grid gap-x-6 gap-y-2 text-muted sm:grid-cols-[auto_1fr]">
        {ROWS.map(([key, label]) => (
          <div key={key} className="contents">
            <dt className="font-medium text-fg">{label}</dt>
            <dd className="break-all" data-source={key}>
              {source?.[key] ?? 'not recorded'}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  )
}
