import { createFileRoute } from '@tanstack/react-router'
import { llmsFullTxtAnswer } from '~/server/ai-pages.server'

/** Every public page's text in one file, for assistants that read the whole site at once. */
export const Route = createFileRoute('/llms-full.txt')({
  server: {
    handlers: {
      GET: ({ request }) => llmsFullTxtAnswer(request),
    },
  },
})
