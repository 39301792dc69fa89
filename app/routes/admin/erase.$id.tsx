import { createFileRoute } from '@tanstack/react-router'
import { ActionForm, dangerButtonStyle, formatTime, linkStyle } from '~/components/desk/desk-ui'
import { PageHero } from '~/components/sections/PageHero'
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
    <>
      <PageHero
        breadcrumb={
          <p>
            <a href={enquiryPath(record.id)} className={linkStyle}>
              Back to the enquiry
            </a>
          </p>
        }
        eyebrow="Erase"
        title={`Erase the enquiry from ${record.name}?`}
        lead={
          <p>
            This deletes the enquiry received {formatTime(record.receivedAt)} from {record.name} ({record.email}) and
            its delivery history ({attempts.length} attempt{attempts.length === 1 ? '' : 's'}) and notes from the
            database. It cannot be undone. Copies already delivered to the company mailbox are not touched.
          </p>
        }
      />
      <div className="container-page mt-10 flex flex-wrap items-center gap-6">
        <ActionForm action="erase" id={record.id} extra={{ confirm: record.id, [SEEN_STATUS]: record.status }}>
          <button type="submit" className={dangerButtonStyle}>
            Erase permanently
          </button>
        </ActionForm>
        <a href={enquiryPath(record.id)} className={linkStyle}>
          Cancel
        </a>
      </div>
    </>
  )
}
