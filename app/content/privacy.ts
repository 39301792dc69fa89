import { site } from '~/site'
import { facts, retentionMonths } from './facts'
import { companyPlace, type LegalPage } from './legal'
import { earlyAccessPrivacySection } from './privacy-early-access'
import { receiptSection } from './privacy-receipt'

/** Where enquiries are stored (the D1 database of issue #13). */
const ENQUIRY_LEDGER = 'a database in our Cloudflare account (Cloudflare D1)'

export const privacyPage: LegalPage = {
  title: 'Privacy Policy',
  updated: '2026-12-02',
  intro: `This policy explains what personal data ${site.legalName} (“${site.name}”, “we”) collects through this website, why, and what you can ask us to do with it. We are based in ${companyPlace}.`,
  sections: [
    {
      title: 'What we collect',
      paragraphs: [
        'We collect personal data only when you send us an enquiry through the contact form, or ask for early access updates on the products page (see “Early access updates” below). The contact form asks for:',
      ],
      list: [
        'your name and e-mail address (required);',
        'the name of your company (optional);',
        'the subject of your enquiry and your message (required).',
      ],
    },
    {
      title: 'Where an enquiry came from',
      paragraphs: [
        'With an enquiry we also record how you reached us, so that we can tell which pages and campaigns bring us work: the page you sent the form from, the first page you opened on this website in that visit, the name of the website whose link brought you here (for example www.google.com, never the address of the page itself), and the campaign labels of that link (utm_source, utm_medium and utm_campaign), if it had any.',
        'No cookie is used for this. While you browse, your browser keeps these details for that tab only (in its session storage, which it clears when the tab is closed). They leave your device only with an enquiry you send, are stored with it and are deleted with it.',
      ],
    },
    {
      title: 'What we do not collect',
      paragraphs: [
        'This website has no accounts, sets no advertising or tracking cookies and uses no third-party analytics. We do not buy personal data, and we never sell or rent yours.',
      ],
    },
    {
      title: 'Why we use it',
      paragraphs: [
        'We use your enquiry to reply to you, to discuss and prepare any work you ask us about, and to keep a record of our correspondence. We do not add you to a mailing list unless you ask us to, and you can ask us to stop contacting you at any time.',
      ],
    },
    {
      title: 'Where it is stored and processed',
      paragraphs: [
        'This website runs on Cloudflare’s network. When you visit a page or send the form, Cloudflare processes technical data such as your IP address and browser type to deliver the page and protect the site from abuse. Your IP address is also used, for a minute at most, to limit how many enquiries one address, and one network, can send. We do not store it: to count enquiries across Cloudflare’s network, the website’s database keeps only a keyed hash of the address and of its network, with a count, for at most two minutes. The key changes every minute and is deleted with the counts, after which no hash can be traced back to an address.',
        `An enquiry you send is stored in ${ENQUIRY_LEDGER}, so that it is not lost if delivery fails. From there it is passed to a form-submission service, which delivers it to our company e-mail, where we read and answer it. These providers may process data outside India; we use them only to run this website and to receive your message.`,
        'We may also pass a copy of an enquiry, over an encrypted and signed connection, to the business tools we use to follow enquiries up, such as our customer-relationship system. A notice of it may go to our team’s chat (Slack, run by Slack Technologies): it gives the subject of the enquiry, your company’s name, when it arrived and a link to it in our records, not your name, your e-mail address or what you wrote. When an enquiry is erased, on your request, on withdrawal or at the end of the period below, the website tells each of these tools that had it, so that their copy is erased too.',
        `Our hosting provider keeps a technical log of each request to the website (for example the time, the page address without its query string, the response status and the approximate location of the request) for at most ${facts.logRetentionDays} days. What you write in the form, including your e-mail address, is never written to these logs.`,
      ],
    },
    {
      title: 'How long we keep it',
      paragraphs: [
        `An enquiry is deleted from the website’s database ${facts.enquiryRetentionDays} days (${retentionMonths()} months) after we receive it. An enquiry held back as suspected spam (sent without passing the website’s automated spam check) is deleted ${facts.heldRetentionDays} days after we receive it, unless we have released it as genuine. If we work together, we keep our correspondence for the duration of that work and the period the law requires us to keep business records; enquiries that do not lead to work are deleted from our e-mail within ${retentionMonths()} months of our last contact.`,
        `The database’s restorable history, which our hosting provider keeps so that the database can be restored after a fault (D1 Time Travel), still holds an enquiry for at most ${facts.restoreHistoryDays} days after it is deleted or erased, and then it is gone. We restore from it only to repair the database, and erase again anything a restore brings back that had been erased.`,
        `When someone at our company opens, exports or erases an enquiry, the website records who did it and when, with the enquiry’s reference number but nothing you wrote. These records are kept for ${facts.auditRetentionDays} days, then deleted, and are kept when the enquiry itself is erased.`,
      ],
    },
    receiptSection,
    earlyAccessPrivacySection,
    {
      title: 'Your rights',
      paragraphs: [
        `You can ask us for a copy of the personal data we hold about you, ask us to correct it or delete it, or withdraw your consent to being contacted. Write to ${site.email}; we will answer within 30 days. Tell us the e-mail address you used in the contact form: we find every enquiry sent from it, and send you a copy of everything the website holds about it, or erase all of it. We may first write to that address to check that the request is yours. Copies already delivered to our e-mail we find and delete there. If the law that applies to you, for example India’s Digital Personal Data Protection Act, 2023 or the EU General Data Protection Regulation, gives you further rights, we will honour them, and you may also complain to the authority responsible for data protection where you live.`,
      ],
    },
    {
      title: 'Security',
      paragraphs: [
        'The website is served only over encrypted connections, and access to enquiries is limited to the people at our company who need to answer them.',
      ],
    },
    {
      title: 'Changes to this policy',
      paragraphs: [
        'If we change how we handle personal data, we will update this page and the date at its top before the change takes effect.',
      ],
    },
    {
      title: 'Contact',
      paragraphs: [`Questions about this policy or your data: write to ${site.email}.`],
    },
  ],
}
