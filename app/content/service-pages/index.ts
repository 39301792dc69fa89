import type { ServiceDetail } from '../types'
import { aiSolutionsDetail } from './ai-solutions'
import { webDevelopmentDetail } from './ai-web-development'
import { automationDetail } from './automation'
import { devopsDetail } from './devops'

export { aiSolutionsDetail, automationDetail, devopsDetail, webDevelopmentDetail }

/** The four service detail pages, in services order. Each page imports only its own module. */
export const serviceDetails: readonly ServiceDetail[] = [
  devopsDetail,
  aiSolutionsDetail,
  automationDetail,
  webDevelopmentDetail,
]
