import { createFileRoute } from '@tanstack/react-router'
import { ConfirmErase, formatTime } from '~/components/desk/desk-ui'
import { enquiryPath, loadEnquiry, SEEN_STATUS } from '~/desk'
import { deskHead } from '~/desk/head'

export const Route = createFileRoute('/admin/erase/$id')({
  loader: ({ params }) => loadEnquiry({ data: { id: params.id } }),
  head: () => deskHead('Erase enquiry'),
  component: ErasePage,
})

function ErasePage() {
  const { record, attempts } = Route.useLoaderData()
  return (
    <ConfirmErase
      back={enquiryPath(record.id)}
      backLabel="Back to the enquiry"
      eyebrow="Erase"
      title={`Erase the enquiry from ${record.name}?`}
      lead={
        <p>
          This deletes the enquiry received {formatTime(record.receivedAt)} from {record.name} ({record.email}) and its
          delivery history ({attempts.length} attempt{attempts.length === 1 ? '' : 's'}) and notes from the database. It
          cannot be undone. Copies already delivered to the company mailbox are not touched.
        </p>
      }
      erase={{ action: 'erase', id: record.id, fields: { confirm: record.id, [SEEN_STATUS]: record.status } }}
    />
  )
}
