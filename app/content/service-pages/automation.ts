import { automation } from '../services'
import type { ServiceDetail } from '../types'

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
        icon: 'gauge',
        colour: 'emerald',
      },
      {
        title: 'Large-Scale Infrastructure Automation',
        description:
          'Provisioning, configuration, patching and compliance checks across hundreds of servers with Ansible, Terraform and scheduled pipelines, without a maintenance-night marathon.',
        icon: 'server',
        colour: 'cyan',
      },
      {
        title: 'Business Process Automation',
        description:
          'Approvals, data entry, reports and notifications moved between your e-mail, spreadsheets, ERP and CRM automatically, with exceptions routed to the right person.',
        icon: 'cog',
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
