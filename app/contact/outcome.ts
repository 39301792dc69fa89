import { createIsomorphicFn } from '@tanstack/react-start'
import { takeFormOutcome } from './outcome.server'
import type { FormOutcome } from './outcome-cookie'

/**
 * For the `/contact` route's loader: the outcome of a form post made without JavaScript, read on
 * the server while the page renders. In the browser (client-side navigation) there is none.
 */
export const loadFormOutcome = createIsomorphicFn()
  .server((): FormOutcome | null => takeFormOutcome())
  .client((): FormOutcome | null => null)
