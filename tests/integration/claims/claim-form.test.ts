// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_TEXT } from '../../../src/contracts/claims.ts';
import { apiClient, type ApiClient } from '../../helpers/admin-client.ts';
import { jpegWithGps, multipart, pdf } from '../../helpers/attachment-files.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { postPageForm } from '../../helpers/page-forms.ts';

/**
 * The Contact us form's incident fields as a browser without JavaScript sends them (multipart, to
 * the page itself): a claim opens with its photo; a refusal comes back as the page, with the words
 * under their fields and everything typed still there.
 */
let t: TestApp;
let sender: SupportUser;
let agent: ApiClient;
beforeAll(async () => {
  t = await createTestApp({ web: true, env: { TICKETS_PER_USER_PER_HOUR: '1000' } });
  [sender, agent] = await Promise.all([supportUser(t), apiClient(t, { role: 'admin' })]);
});
afterAll(() => t.close());

const page = (url = '/support/create-ticket') =>
  t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...sender.headers } });

async function send(fields: Record<string, string>, files: Parameters<typeof multipart>[1]) {
  const body = await multipart(fields, files);
  return t.app.inject({
    method: 'POST',
    url: '/support/create-ticket',
    payload: body.payload,
    headers: { accept: 'text/html', 'sec-fetch-site': 'same-origin', ...sender.headers, ...body.headers },
  });
}

/** A staff form sent from its own page, as a browser without JavaScript sends it. */
const staffPost = (url: string, fields: Record<string, string>, who: { headers: Record<string, string> } = agent) =>
  postPageForm(t, url, fields, { origin: 'http://localhost:80', ...who.headers });

describe('the incident fields without JavaScript', () => {
  it('are on the form, with their labels; the app’s link comes with the reason and the delivery chosen', async () => {
    const plain = await page();
    for (const label of [
      CLAIM_TEXT.legend,
      CLAIM_TEXT.kind,
      CLAIM_TEXT.delivery,
      CLAIM_TEXT.value,
      CLAIM_TEXT.deliveredOn,
    ]) {
      expect(plain.body).toContain(`>${label}<`);
    }
    expect(plain.body).toMatch(/<select[^>]*name="claimKind"/);
    const linked = await page('/support/create-ticket?reason=Incident&delivery=BGS-7788');
    expect(linked.body).toMatch(/<input[^>]*name="deliveryReference"[^>]*value="BGS-7788"/);
    expect(linked.body).toMatch(/<option value="Incident" selected="">/);
    const hostile = await page('/support/create-ticket?delivery=%22%3E%3Cscript%3E');
    expect(hostile.body).not.toContain('"><script>');
  });

  it('a damaged item with its photo opens the ticket and its claim', async () => {
    const res = await send(
      {
        reason: 'Incident',
        message: 'The lamp is broken, sent without JavaScript.',
        clientId: 'claim-form-0001',
        claimKind: 'damaged',
        deliveryReference: 'BGS-7001',
        itemValue: '89.90',
        deliveredOn: '',
      },
      [{ name: 'lamp.jpg', data: await jpegWithGps() }],
    );
    expect(res.statusCode, res.body.slice(0, 300)).toBe(303);
    const ticketId = /^\/support\/ticket\/([0-9a-f-]{36})$/.exec(String(res.headers.location))?.[1];
    const claim = (await agent.get(`/api/admin/support/tickets/${ticketId}/claim`)).json().claim;
    expect(claim).toMatchObject({ kind: 'damaged', deliveryReference: 'BGS-7001', itemValueCents: 8990, evidence: 1 });
  });

  it('without a photo comes back with why, under the files, and keeps what was typed', async () => {
    const res = await send(
      {
        reason: 'Incident',
        message: 'The chair leg snapped in transit.',
        clientId: 'claim-form-0002',
        claimKind: 'damaged',
        deliveryReference: 'BGS-7002',
        itemValue: '240',
        deliveredOn: '2026-11-30',
      },
      [{ name: 'receipt.pdf', data: pdf() }],
    );
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain(CLAIM_TEXT.photoRequired);
    expect(res.body).toContain('The chair leg snapped in transit.');
    expect(res.body).toMatch(/name="deliveryReference"[^>]*value="BGS-7002"/);
    expect(res.body).toMatch(/name="itemValue"[^>]*value="240"/);
    expect(res.body).toMatch(/name="deliveredOn"[^>]*value="2026-11-30"/);
    expect(res.body).toMatch(/<option value="damaged" selected="">/);
  });

  it('a missing delivery is said under its field', async () => {
    const res = await send(
      {
        reason: 'Incident',
        message: 'It never came at all.',
        clientId: 'claim-form-0003',
        claimKind: 'lost',
        itemValue: '50',
      },
      [],
    );
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(`>${CLAIM_TEXT.deliveryRequired}<`);
  });
});

describe('the claim on the ticket’s page, without JavaScript', () => {
  it('shows its facts to staff, refuses a decision without what it needs, then decides it', async () => {
    const opened = await sender.post('/api/support/tickets', {
      reason: 'Incident',
      message: 'The parcel never reached me.',
      claimKind: 'lost',
      deliveryReference: 'BGS-7100',
      itemValue: '60',
      deliveredOn: '2026-11-30',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const url = `/admin/support/${opened.json().ticketId}`;
    const shown = await t.app.inject({ method: 'GET', url, headers: { ...agent.headers, accept: 'text/html' } });
    expect(shown.body).toContain(`>${CLAIM_TEXT.panelTitle}<`);
    // The delivery day as it was given (a day, not an instant that could fall on the next one).
    for (const text of ['Lost', 'BGS-7100', '$60.00', 'Submitted', '30 November 2026']) {
      expect(shown.body).toContain(text);
    }
    expect(shown.body).toMatch(/<select[^>]*name="outcome"/);

    const refused = await staffPost(url, { intent: 'claim-decide', seenVersion: '1', outcome: 'declined', reason: '' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(CLAIM_TEXT.reasonRequired);
    const tooMuch = await staffPost(url, { intent: 'claim-decide', seenVersion: '1', outcome: 'part', amount: '75' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.body).toContain(CLAIM_TEXT.amountOverValue('$60.00'));
    expect(tooMuch.body).toMatch(/name="amount"[^>]*value="75"/);

    const decided = await staffPost(url, { intent: 'claim-decide', seenVersion: '1', outcome: 'part', amount: '40' });
    expect(decided.statusCode).toBe(303);
    expect(decided.headers.location).toBe(`${url}#claim`);
    const after = await t.app.inject({ method: 'GET', url, headers: { ...agent.headers, accept: 'text/html' } });
    expect(after.body).toContain('Upheld in part');
    expect(after.body).toContain('$40.00');
    expect(after.body).not.toMatch(/<select[^>]*name="outcome"/);
  });

  it('an auditor reads the claim and has no form to decide it', async () => {
    const auditor = await apiClient(t, { roles: ['auditor'] });
    const opened = await sender.post('/api/support/tickets', {
      reason: 'Incident',
      message: 'It came late by a week.',
      claimKind: 'late',
      deliveryReference: 'BGS-7101',
    });
    const url = `/admin/support/${opened.json().ticketId}`;
    const shown = await t.app.inject({ method: 'GET', url, headers: { ...auditor.headers, accept: 'text/html' } });
    expect(shown.body).toContain('BGS-7101');
    expect(shown.body).not.toMatch(/<select[^>]*name="outcome"/);
    const tried = await staffPost(
      url,
      { intent: 'claim-decide', seenVersion: '1', outcome: 'declined', reason: 'x' },
      auditor,
    );
    expect(tried.statusCode).toBe(403);
  });
});

describe('the claim’s life without JavaScript', () => {
  it('staff ask the traveller; the traveller answers on their page with a photo; the sender appeals from theirs', async () => {
    const traveller = await supportUser(t);
    const opened = await sender.post('/api/support/tickets', {
      reason: 'Incident',
      message: 'The sender’s own words: my camera never came.',
      claimKind: 'lost',
      deliveryReference: 'BGS-7200',
      itemValue: '300',
    });
    const ticketId = opened.json().ticketId;
    const url = `/admin/support/${ticketId}`;
    // A refusal keeps what was typed, with the words under the field.
    const refused = await staffPost(url, {
      intent: 'claim-traveller',
      seenVersion: '1',
      email: 'not-an-address',
      statement: 'When did you hand over the camera?',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(CLAIM_TEXT.travellerEmailInvalid);
    expect(refused.body).toContain('When did you hand over the camera?');
    const asked = await staffPost(url, {
      intent: 'claim-traveller',
      seenVersion: '1',
      // Pasted with a space and a line break around it: the same address, and the traveller's page is theirs.
      email: ` ${traveller.email.toUpperCase()}\n`,
      name: 'Sam',
      statement: 'When did you hand over the camera?',
    });
    expect(asked.statusCode, asked.body).toBe(303);
    const claimId = (await agent.get(`/api/admin/support/tickets/${ticketId}/claim`)).json().claim.id;

    const travellerPage = `/support/claims/${claimId}`;
    const read = (who: { headers: Record<string, string> }) =>
      t.app.inject({ method: 'GET', url: travellerPage, headers: { accept: 'text/html', ...who.headers } });
    const theirs = await read(traveller);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.body).toContain(CLAIM_TEXT.travellerTitle);
    expect(theirs.body).toContain('When did you hand over the camera?');
    expect(theirs.body).not.toContain('my camera never came');
    expect(theirs.body).toMatch(/<form[^>]*enctype="multipart\/form-data"/i);
    // Someone else signed in: no claim for them.
    const notTheirs = await read(sender);
    expect(notTheirs.body).toContain('We could not find a claim for you at this address.');
    expect(notTheirs.body).not.toContain('When did you hand over the camera?');

    const body = await multipart({ message: 'Handed over at Napier airport, boxed.' }, [
      { name: 'handover.jpg', data: await jpegWithGps() },
    ]);
    const answered = await t.app.inject({
      method: 'POST',
      url: travellerPage,
      payload: body.payload,
      headers: { accept: 'text/html', 'sec-fetch-site': 'same-origin', ...traveller.headers, ...body.headers },
    });
    expect(answered.statusCode, answered.body).toBe(303);
    expect(answered.headers.location).toBe(`${travellerPage}?answered=1`);
    expect((await read(traveller)).body).not.toMatch(/name="message"/);

    const staffView = await t.app.inject({ method: 'GET', url, headers: { ...agent.headers, accept: 'text/html' } });
    expect(staffView.body).toContain('Handed over at Napier airport, boxed.');

    // Decided, then appealed by the sender from their ticket's page.
    const decided = await staffPost(url, {
      intent: 'claim-decide',
      seenVersion: '3',
      outcome: 'declined',
      reason: 'Handed over whole.',
    });
    expect(decided.statusCode, decided.body).toBe(303);
    const senderPage = `/support/ticket/${ticketId}`;
    const senderHeaders = { origin: 'http://localhost:80', ...sender.headers };
    const own = await t.app.inject({
      method: 'GET',
      url: senderPage,
      headers: { accept: 'text/html', ...sender.headers },
    });
    expect(own.body).toContain(CLAIM_TEXT.appeal);
    expect(own.body).not.toContain('Napier airport');
    const empty = await postPageForm(t, senderPage, { intent: 'claim-appeal', reason: '' }, senderHeaders);
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain(CLAIM_TEXT.appealReasonRequired);
    const appealed = await postPageForm(
      t,
      senderPage,
      { intent: 'claim-appeal', reason: 'The photo shows the box was crushed.' },
      senderHeaders,
    );
    expect(appealed.statusCode, appealed.body).toBe(303);
    const after = await t.app.inject({
      method: 'GET',
      url: senderPage,
      headers: { accept: 'text/html', ...sender.headers },
    });
    expect(after.body).toContain(CLAIM_TEXT.appealed);
    expect(after.body).not.toMatch(/name="reason"/);
  });
});
