import { pageAt, type ServicePath } from './pages'
import type { ServiceCard } from './types'

/** A service's slug, its page, and its title, which is its page's title (one title, in content/pages.ts). */
function servicePage(slug: ServiceCard['slug']): Pick<ServiceCard, 'slug' | 'path' | 'title'> {
  const path = `/services/${slug}` satisfies ServicePath
  return { slug, path, title: pageAt(path).title }
}

export const devops: ServiceCard = {
  summary:
    'Kubernetes and OpenShift platforms, CI/CD pipelines and monitoring that let large teams ship safely and often.',
  description:
    'We design, build and run the platforms that enterprise software ships on: container platforms, delivery pipelines and the monitoring that tells you something is wrong before your customers do. Everything is written as code, reviewed like code and handed over with documentation your team can own.',
  icon: 'cloud',
  image: {
    src: '/images/services/devops.svg',
    alt: 'Illustration: a delivery pipeline from commit to build, test and deploy, feeding a cluster of containers with a monitoring graph above it.',
    width: 480,
    height: 360,
  },
  features: [
    'Kubernetes and OpenShift platforms, from design to day-two operations',
    'CI/CD pipelines with automated tests, security scans and safe rollbacks',
    'Multi-cloud and hybrid infrastructure on AWS, Azure, Google Cloud and on-premises',
    'Monitoring and alerting with Splunk and Datadog, tuned to the signals that matter',
  ],
  colour: 'cyan',
  ...servicePage('devops'),
}

export const aiSolutions: ServiceCard = {
  summary: 'From a first prototype to a product people pay for: voice assistants, language AI and document automation.',
  description:
    'We take AI ideas from a whiteboard to a product in production: a working prototype in weeks, then the engineering that turns it into a dependable SaaS, with accounts, billing, monitoring and costs you can predict. We build our own products this way, starting with our voice assistant.',
  icon: 'brain-circuit',
  image: {
    src: '/images/services/ai-solutions.svg',
    alt: 'Illustration: a voice waveform and a document flowing into a tree of connected language nodes.',
    width: 480,
    height: 360,
  },
  features: [
    'Product discovery and a working prototype before the big investment',
    'Voice and conversational assistants grounded in your own content',
    'Document understanding, extraction and drafting with human review',
    'Multi-tenant SaaS foundations: sign-in, billing, usage metering and observability',
  ],
  colour: 'violet',
  ...servicePage('ai-solutions'),
}

export const automation: ServiceCard = {
  summary: 'Dashboards, infrastructure automation and business workflows that remove repetitive work at scale.',
  description:
    'We automate the work that keeps people busy but adds little: provisioning and patching hundreds of servers, collecting data from machines and systems into one live view, and moving documents and approvals through a business without copy and paste. The result is fewer manual steps, fewer errors and a clear record of what happened.',
  icon: 'factory',
  image: {
    src: '/images/services/automation.svg',
    alt: 'Illustration: two interlocking gears beside a live dashboard with a gauge and a bar chart.',
    width: 480,
    height: 360,
  },
  features: [
    'Custom monitoring dashboards for plants, fleets and IT estates',
    'Configuration and patching automated across large server estates',
    'Business process automation that connects the tools you already use',
    'Alerts, audit trails and reports generated without manual effort',
  ],
  colour: 'emerald',
  ...servicePage('automation'),
}

export const webDevelopment: ServiceCard = {
  summary: 'Fast, accessible websites with AI features that help visitors find answers and take the next step.',
  description:
    'Websites are where we started, and we still build them with care: fast on a mid-range phone, accessible, easy to find in search and simple for your team to update. Where it helps your visitors, we add AI features such as smart search, assistants and personalised content, and we measure whether they work.',
  icon: 'globe',
  image: {
    src: '/images/services/ai-web-development.svg',
    alt: 'Illustration: a browser window with a page layout, a sparkle marking an AI feature and a speed gauge.',
    width: 480,
    height: 360,
  },
  features: [
    'Server-rendered, fast-loading sites that score well on Core Web Vitals',
    'AI search, assistants and personalisation where they help visitors',
    'Accessible design and technical SEO built in from the first page',
    'Headless CMS so your team can publish without a developer',
  ],
  colour: 'amber',
  ...servicePage('ai-web-development'),
}

/** The four services, in the order the services page lists them. */
export const services: readonly ServiceCard[] = [devops, aiSolutions, automation, webDevelopment]

/** The three core services featured on the home page. */
export const coreServices: readonly ServiceCard[] = [devops, aiSolutions, automation]
