import type { FaqType } from '../../contracts/content.ts';

/**
 * Demo content for a new deployment: real, readable text that an operator edits from the admin
 * console. `{company}` is replaced by COMPANY_NAME when seeding.
 */

export const DEMO_FAQS: Array<{ type: FaqType; title: string; content: string }> = [
  {
    type: 'general',
    title: 'What is {company}?',
    content:
      '{company} is a New Zealand delivery marketplace. Travellers who are already making a domestic trip carry parcels for senders in their spare baggage space, and earn money for it. Senders get items delivered between cities for less, often on the same day.',
  },
  {
    type: 'general',
    title: 'Where does {company} operate?',
    content:
      'Anywhere in New Zealand that travellers go: between the main centres such as Auckland, Wellington, Christchurch, Hamilton, Tauranga, Dunedin and Queenstown, and to smaller towns whenever a traveller lists a trip there.',
  },
  {
    type: 'general',
    title: 'How do I get the app?',
    content:
      'Download the {company} app from the App Store or Google Play using the links on our home page, then sign up with your email address. The same account works as a sender and as a traveller.',
  },
  {
    type: 'general',
    title: 'Is my personal information safe?',
    content:
      'We collect only what we need to run deliveries and handle it under the New Zealand Privacy Act 2020. Read our Privacy Policy on the Terms and Conditions page for the details, including how to ask for a copy of your information.',
  },
  {
    type: 'general',
    title: 'How do I contact support?',
    content:
      'Sign in on the Support page and open a ticket. You can follow the conversation with our team there and reply at any time while the ticket is open.',
  },
  {
    type: 'sender',
    title: 'How do I send an item?',
    content:
      'Browse the trips going your way, send a delivery request describing your item, and chat with the traveller. When you accept an offer you can follow every status update until the item is delivered.',
  },
  {
    type: 'sender',
    title: 'What can I send?',
    content:
      'Everyday items that are legal to carry on a domestic flight, bus, ferry or car trip in New Zealand. Dangerous goods, weapons, illegal substances, cash, perishable food without suitable packaging and live animals are not allowed.',
  },
  {
    type: 'sender',
    title: 'How much does a delivery cost?',
    content:
      'You and the traveller agree on the price in the app before the trip. Prices are usually well below courier rates for the same distance because the traveller is making the journey anyway.',
  },
  {
    type: 'sender',
    title: 'What happens when my item is delivered?',
    content:
      'The traveller marks the item delivered. You confirm that it arrived, the traveller is paid, and you rate each other. Your rating finalises the delivery.',
  },
  {
    type: 'traveller',
    title: 'How do I earn money as a traveller?',
    content:
      'List a trip you are already taking. Once it is verified it appears in the app, senders send you requests, and you send offers for the items you are happy to carry. You are paid once the customer confirms delivery.',
  },
  {
    type: 'traveller',
    title: 'Why does my trip need to be verified?',
    content:
      'We check every trip before it is published so that senders can trust the journeys they see. Verification usually takes less than a day.',
  },
  {
    type: 'traveller',
    title: 'How do I confirm a pick-up?',
    content:
      'When you collect an item, scan the QR code the sender shows you in the app. That confirms the pick-up and starts the delivery.',
  },
  {
    type: 'traveller',
    title: 'Do I have to check what I carry?',
    content:
      'Yes. Look at every item before you accept it and refuse anything you are unsure of. You are responsible for what is in your baggage, and you must never carry sealed packages that you cannot inspect.',
  },
];

export const DEMO_DOCUMENTS: Array<{ slug: 'terms' | 'privacy'; title: string; body: string }> = [
  {
    slug: 'terms',
    title: 'Terms and Conditions',
    body: `Last updated: 1 November 2026

These terms apply to everyone who uses the {company} website or app: senders, travellers and logistics partners. By creating an account or using the service you agree to them. If you do not agree, please do not use {company}.

## 1. What {company} does
{company} is a marketplace that connects senders, who want items delivered, with travellers, who are already making a trip within New Zealand and have spare baggage space. {company} is not a courier or carrier: the agreement to carry an item is made between the sender and the traveller.

## 2. Your account
You must be at least 18 years old and give accurate details. Keep your password to yourself; you are responsible for what happens in your account. Tell us straight away through Support if you think someone else has used it.

## 3. Items that may not be sent
You must not send or carry anything that is illegal in New Zealand, dangerous goods as defined by the Civil Aviation Authority and the carrier you travel with, weapons, drugs, cash or bearer instruments, stolen goods, live animals, or anything you have not declared truthfully. Travellers may refuse any item and must inspect each item before accepting it.

## 4. Prices and payment
Senders and travellers agree on a price in the app before the trip. Payment is held by {company} and released to the traveller once the sender confirms delivery. Our service fee is shown before you confirm.

## 5. Deliveries, loss and damage
Travellers must take reasonable care of items and deliver them as agreed. If an item is lost or damaged, report it through Support within 7 days of the agreed delivery date so we can help resolve it. Nothing in these terms limits your rights under the Consumer Guarantees Act 1993 or the Fair Trading Act 1986 where those Acts apply.

## 6. Ratings and conduct
Ratings must be honest. Harassment, discrimination, fraud or attempts to take payments outside the app may lead to the suspension of your account.

## 7. Logistics partners
Companies that register as partners must hold the licences their work requires and keep the details they give us up to date. We may verify, decline or remove a partner application at our discretion.

## 8. Changes and contact
We may update these terms; we will tell you about significant changes in the app before they apply. These terms are governed by New Zealand law. Questions are welcome through the Support page.`,
  },
  {
    slug: 'privacy',
    title: 'Privacy Policy',
    body: `Last updated: 1 November 2026

This policy explains how {company} collects, uses and protects personal information, in line with the New Zealand Privacy Act 2020 and its information privacy principles.

## 1. What we collect
Account details (name, email address, phone number), trip and delivery details, messages you send through the app or to Support, payment records, and, for logistics partners, company and contact details and the commercial licence you upload. We also keep basic technical logs (such as IP address and browser type) to keep the service secure.

## 2. Why we collect it
To run deliveries between senders and travellers, to verify trips and partners, to take and make payments, to answer support requests, to prevent fraud and abuse, and to meet our legal obligations. We do not sell personal information.

## 3. Who we share it with
Only what is needed: a sender and a traveller see each other's first name, rating and the details of the delivery they agree on. We use service providers for hosting, email and payments, who must protect the information. We disclose information to authorities only where the law requires or allows it.

## 4. Where it is kept and for how long
Information is stored on secure servers and kept only as long as we need it for the purposes above or as the law requires (for example, financial records for seven years).

## 5. Your rights
You may ask for a copy of the personal information we hold about you and ask us to correct it. Contact us through the Support page. If you are not satisfied with our response you can complain to the Office of the Privacy Commissioner (privacy.org.nz).

## 6. Cookies
The website uses one essential cookie to keep you signed in to Support. We do not use advertising or tracking cookies.

## 7. Changes
We may update this policy and will show the date of the latest version at the top.`,
  },
];
