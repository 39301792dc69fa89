import { devops } from '../services'
import type { ServiceDetail } from '../types'

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
        icon: 'container',
        colour: 'cyan',
      },
      {
        title: 'Advanced CI/CD Pipelines',
        description:
          'Pipelines in Jenkins, GitLab CI, GitHub Actions or Tekton with automated tests, image scanning, approvals and progressive delivery, so releases become routine.',
        icon: 'workflow',
        colour: 'violet',
      },
      {
        title: 'Multi-Cloud & Hybrid Infrastructure',
        description:
          'Landing zones and networks across AWS, Azure and Google Cloud, connected to on-premises systems, with cost and access controls from day one.',
        icon: 'cloud',
        colour: 'emerald',
      },
      {
        title: 'Comprehensive Monitoring & Logging',
        description:
          'Splunk and Datadog set up around service-level objectives: meaningful dashboards, alerts that reach the right person, and logs you can search when it counts.',
        icon: 'activity',
        colour: 'amber',
      },
      {
        title: 'Infrastructure as Code',
        description:
          'Terraform and Ansible modules for networks, clusters and servers, reviewed in pull requests and applied by pipelines, so every environment can be rebuilt the same way.',
        icon: 'file-code',
        colour: 'rose',
      },
      {
        title: 'Containerization with Docker',
        description:
          'Existing applications packaged into small, secure Docker images with health checks and sensible defaults, ready for any orchestrator.',
        icon: 'boxes',
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
