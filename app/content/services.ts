import {
  Activity,
  Blocks,
  Boxes,
  BrainCircuit,
  Cloud,
  Cog,
  Container,
  Factory,
  FileCode,
  FileText,
  Gauge,
  Globe,
  Mic,
  MousePointerClick,
  Network,
  Puzzle,
  Search,
  Server,
  Sparkles,
  Workflow,
} from 'lucide-react'
import { site } from '~/site'
import type { ServiceCard, ServiceDetail } from './types'

const devops: ServiceCard = {
  slug: 'devops',
  title: 'Enterprise DevOps & Cloud Automation',
  summary:
    'Kubernetes and OpenShift platforms, CI/CD pipelines and monitoring that let large teams ship safely and often.',
  description:
    'We design, build and run the platforms that enterprise software ships on: container platforms, delivery pipelines and the monitoring that tells you something is wrong before your customers do. Everything is written as code, reviewed like code and handed over with documentation your team can own.',
  icon: Cloud,
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
  path: '/services/devops',
}

const aiSolutions: ServiceCard = {
  slug: 'ai-solutions',
  title: 'AI & SaaS Product Development',
  summary: 'From a first prototype to a product people pay for: voice assistants, language AI and document automation.',
  description:
    'We take AI ideas from a whiteboard to a product in production: a working prototype in weeks, then the engineering that turns it into a dependable SaaS, with accounts, billing, monitoring and costs you can predict. We build our own products this way, starting with our voice assistant.',
  icon: BrainCircuit,
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
  path: '/services/ai-solutions',
}

const automation: ServiceCard = {
  slug: 'automation',
  title: 'Custom & Industrial Automation',
  summary: 'Dashboards, infrastructure automation and business workflows that remove repetitive work at scale.',
  description:
    'We automate the work that keeps people busy but adds little: provisioning and patching hundreds of servers, collecting data from machines and systems into one live view, and moving documents and approvals through a business without copy and paste. The result is fewer manual steps, fewer errors and a clear record of what happened.',
  icon: Factory,
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
  path: '/services/automation',
}

const webDevelopment: ServiceCard = {
  slug: 'ai-web-development',
  title: 'AI-Powered Web Development',
  summary: 'Fast, accessible websites with AI features that help visitors find answers and take the next step.',
  description:
    'Websites are where we started, and we still build them with care: fast on a mid-range phone, accessible, easy to find in search and simple for your team to update. Where it helps your visitors, we add AI features such as smart search, assistants and personalised content, and we measure whether they work.',
  icon: Globe,
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
  path: '/services/ai-web-development',
}

/** The four services, in the order the services page lists them. */
export const services: readonly ServiceCard[] = [devops, aiSolutions, automation, webDevelopment]

/** The three core services featured on the home page. */
export const coreServices: readonly ServiceCard[] = [devops, aiSolutions, automation]

export const servicesPage = {
  eyebrow: 'Services',
  title: 'Engineering that keeps your business running',
  lead: 'Four practices, one team. We design, build and operate the systems behind your products, and automate the work around them, so your people can focus on what only they can do.',
  cta: {
    title: 'Not sure where to start?',
    text: 'Tell us about the system or the process that is slowing you down. We will reply with questions, a suggested first step and an honest view of whether we are the right team for it.',
    label: 'Talk to an Engineer',
  },
} as const

export const devopsDetail: ServiceDetail = {
  service: devops,
  lead: 'Platforms your teams can ship on every day: container orchestration, delivery pipelines, infrastructure as code and monitoring, designed for the scale and the scrutiny of enterprise IT.',
  approach: {
    title: 'Our Approach to DevOps',
    paragraphs: [
      'Our engineers bring over a decade of experience running delivery platforms for large, well-known enterprises, where downtime is measured in lost revenue and every change needs an audit trail. We bring the same discipline to every engagement, whatever its size.',
      'We start with how your software gets from a developer’s laptop to production today, then improve it in small, measurable steps. Nothing is a black box: pipelines, clusters and dashboards are defined as code in your repositories, and your team works alongside ours until they can run it without us.',
    ],
    highlights: [
      'Everything as code, in your repositories',
      'Security and compliance checks inside the pipeline',
      'Small, reversible changes over big-bang migrations',
      'Runbooks and hand-over so your team owns the result',
    ],
  },
  capabilities: {
    title: 'What we deliver',
    intro: 'Six areas where we design, build and operate, together or one at a time.',
    cards: [
      {
        title: 'Enterprise Kubernetes & OpenShift',
        description:
          'Cluster design, multi-tenancy, network policies, upgrades and capacity planning for Kubernetes and Red Hat OpenShift, in the cloud or in your data centre.',
        icon: Container,
        colour: 'cyan',
      },
      {
        title: 'Advanced CI/CD Pipelines',
        description:
          'Pipelines in Jenkins, GitLab CI, GitHub Actions or Tekton with automated tests, image scanning, approvals and progressive delivery, so releases become routine.',
        icon: Workflow,
        colour: 'violet',
      },
      {
        title: 'Multi-Cloud & Hybrid Infrastructure',
        description:
          'Landing zones and networks across AWS, Azure and Google Cloud, connected to on-premises systems, with cost and access controls from day one.',
        icon: Cloud,
        colour: 'emerald',
      },
      {
        title: 'Comprehensive Monitoring & Logging',
        description:
          'Splunk and Datadog set up around service-level objectives: meaningful dashboards, alerts that reach the right person, and logs you can search when it counts.',
        icon: Activity,
        colour: 'amber',
      },
      {
        title: 'Infrastructure as Code',
        description:
          'Terraform and Ansible modules for networks, clusters and servers, reviewed in pull requests and applied by pipelines, so every environment can be rebuilt the same way.',
        icon: FileCode,
        colour: 'rose',
      },
      {
        title: 'Containerization with Docker',
        description:
          'Existing applications packaged into small, secure Docker images with health checks and sensible defaults, ready for any orchestrator.',
        icon: Boxes,
        colour: 'cyan',
      },
    ],
  },
  cta: {
    title: 'Let’s design your platform',
    text: 'Tell us about your applications, your clouds and what slows your releases down. We will come back with questions and a suggested first step.',
    label: 'Architect Your Solution',
    subject: 'devops',
  },
}

export const aiSolutionsDetail: ServiceDetail = {
  service: aiSolutions,
  lead: 'We turn AI ideas into products that work in the real world: prototypes you can put in front of users within weeks, and the product engineering that takes them to production.',
  approach: {
    title: 'From Concept to Creation',
    paragraphs: [
      'Most AI projects stall between an impressive demo and a product people rely on. We close that gap by deciding early what the model must get right, how a person checks its output, and what it will cost to run for every user, and then building the software around the model to that standard.',
      `We build our own products the same way. The three below are in active development at ${site.name}; the methods behind them are the ones we apply to client projects.`,
    ],
    highlights: [
      'A working prototype before the big investment',
      'Human review wherever accuracy matters',
      'Costs per user measured from the first release',
      'Your data stays yours, and out of public training sets',
    ],
  },
  capabilities: {
    title: 'What we are building',
    intro: 'Three products and research lines that show how we work with AI.',
    cards: [
      {
        title: `${site.product.name} Voice Assistant`,
        description:
          'A voice assistant with an animated avatar that embeds into any website, answers visitors from your own content, and can book appointments and fill in forms by voice.',
        icon: Mic,
        colour: 'cyan',
        badge: 'Launching soon',
      },
      {
        title: 'Symbolic AI from Sanskrit Grammar',
        description:
          'A research system that applies the rules of Panini’s grammar and classical Indian logic to language understanding: precise, explainable reasoning alongside statistical models.',
        icon: Network,
        colour: 'violet',
        badge: 'Research',
      },
      {
        title: 'AI-Assisted Document Automation',
        description:
          'Reads invoices, forms and contracts, extracts the fields that matter and drafts routine documents, with a person approving anything the system is unsure about.',
        icon: FileText,
        colour: 'emerald',
      },
    ],
  },
  cta: {
    title: 'Have an AI idea worth building?',
    text: 'Tell us the problem you want to solve and who it is for. We will help you find the smallest version worth building and what it would take.',
    label: 'Bring Your AI Idea to Life',
  },
}

export const automationDetail: ServiceDetail = {
  service: automation,
  lead: 'Software that takes repetitive work off your team’s hands, from server fleets and factory data to approvals and paperwork, reliably and with a record of every step.',
  approach: {
    title: 'Engineering for Efficiency',
    paragraphs: [
      'Automation pays off when it is dependable. We begin by mapping the work as it happens today, who does what, how often and where it goes wrong, and automate the steps that cost the most time or cause the most errors first.',
      'Every automation we build logs what it did, alerts a person when it cannot continue and can be switched off safely. Your team sees exactly what runs, when, and why.',
    ],
    highlights: [
      'Start with the steps that cost the most',
      'Every run logged and auditable',
      'A person is alerted when judgement is needed',
      'Built on tools you already use where possible',
    ],
  },
  capabilities: {
    title: 'What we automate',
    intro: 'Three kinds of automation we build, from the shop floor to the back office.',
    cards: [
      {
        title: 'Custom Monitoring Dashboards',
        description:
          'Live dashboards that bring together data from machines, sensors, servers and business systems, with thresholds and alerts your operators define.',
        icon: Gauge,
        colour: 'emerald',
      },
      {
        title: 'Large-Scale Infrastructure Automation',
        description:
          'Provisioning, configuration, patching and compliance checks across hundreds of servers with Ansible, Terraform and scheduled pipelines, without a maintenance-night marathon.',
        icon: Server,
        colour: 'cyan',
      },
      {
        title: 'Business Process Automation',
        description:
          'Approvals, data entry, reports and notifications moved between your e-mail, spreadsheets, ERP and CRM automatically, with exceptions routed to the right person.',
        icon: Cog,
        colour: 'violet',
      },
    ],
  },
  cta: {
    title: 'What would you automate first?',
    text: 'Describe the process or the estate you want to automate. We will suggest where automation pays back soonest and how we would build it.',
    label: 'Engineer Your Automation Solution',
    subject: 'automation',
  },
}

export const webDevelopmentDetail: ServiceDetail = {
  service: webDevelopment,
  lead: 'Websites that load fast, read well, rank well and turn visitors into enquiries, with AI features where they genuinely help.',
  approach: {
    title: 'Your Website, Reimagined',
    paragraphs: [
      `${site.name} began by building websites, and we still treat each one as a product: clear goals, content that answers real questions, and engineering that keeps it fast on a mid-range phone over a patchy connection.`,
      'AI is a tool in that work, not a gimmick. We add search that understands questions, assistants that answer from your own content and pages that adapt to what a visitor needs, and we measure whether each one moves the numbers you care about.',
    ],
    highlights: [
      'Fast on real phones and real networks',
      'Accessible to every visitor',
      'Content your team can update themselves',
      'AI features that earn their place',
    ],
  },
  capabilities: {
    title: 'What we build',
    intro: 'Six capabilities we combine to fit your site and your audience.',
    cards: [
      {
        title: 'AI-Enhanced UX',
        description:
          'Search that understands questions, an assistant that answers from your own pages, and navigation that adapts to what visitors are looking for.',
        icon: Sparkles,
        colour: 'amber',
      },
      {
        title: 'Intelligent Conversion Rate Optimization',
        description:
          'Clear calls to action, shorter forms and experiments on the pages that matter, guided by analytics rather than guesswork.',
        icon: MousePointerClick,
        colour: 'rose',
      },
      {
        title: 'High-Performance Scalable Architecture',
        description:
          'Server-rendered pages delivered from the edge, optimised images and minimal JavaScript, so the site stays fast when traffic spikes.',
        icon: Gauge,
        colour: 'cyan',
      },
      {
        title: 'Integrated SEO & Content Strategy',
        description:
          'Technical SEO, structured data and a content plan built around the questions your customers actually ask.',
        icon: Search,
        colour: 'emerald',
      },
      {
        title: 'Custom AI Feature Integration',
        description:
          'Product recommendations, document upload and summarisation, quote calculators or a voice assistant, connected to your own data and systems.',
        icon: Puzzle,
        colour: 'violet',
      },
      {
        title: 'Headless CMS & API-First Design',
        description:
          'Content managed in a headless CMS and served through clean APIs, ready for your website, your app and whatever channel comes next.',
        icon: Blocks,
        colour: 'amber',
      },
    ],
  },
  cta: {
    title: 'Planning a new website or a redesign?',
    text: 'Share your current site, your goals and your timeline. We will reply with questions, a suggested scope and an estimate range.',
    label: 'Start Your Web Project',
    subject: 'website',
  },
}

/** The four service detail pages, in services order. */
export const serviceDetails: readonly ServiceDetail[] = [
  devopsDetail,
  aiSolutionsDetail,
  automationDetail,
  webDevelopmentDetail,
]
