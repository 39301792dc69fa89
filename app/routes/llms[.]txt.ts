import { createFileRoute } from '@tanstack/react-router'
import { llmsTxtAnswer } from '~/server/ai-pages.server'

/** The llms.txt proposal's index of the site for assistants (https://llmstxt.org). */
export const Route = createFileRoute('/llms.txt')({
  server: {
    handlers: {
      GET: ({ request }) => llmsTxtAnswer(request),
    },
  },
})
