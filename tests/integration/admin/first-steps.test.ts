// One database: pages and their forms (the routes' loaders and actions, the markup); the same SQL on either kind, and no connections side by side, notifications across processes or durability in question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_STEPS_TEXT } from '../../../src/contracts/admin.ts';
import { deskApi } from '../../../src/contracts/api/support.ts';
import { serviceLevelsApi } from '../../../src/contracts/api/service-levels.ts';
import { DEFAULT_CALENDAR } from '../../../src/contracts/service-levels.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import { createTestApp, type TestApp } from '../../helpers/test-app.ts';

/**
 * A new console's first steps on /admin: each of the four is ticked by doing it (any way: here
 * through the API, as the pages do), and the list is gone once all four are done.
 */
let t: TestApp;
let admin: SupportUser;
beforeAll(async () => {
  t = await createTestApp({ web: true });
  admin = await supportUser(t, { role: 'admin' });
});
afterAll(() => t?.close());

type StepKey = keyof typeof FIRST_STEPS_TEXT.steps;
const KEYS = Object.keys(FIRST_STEPS_TEXT.steps) as StepKey[];

/** What /admin shows of the first steps: each step's Done or To do, or null when the list is not there. */
async function stepsOnHome(): Promise<Record<StepKey, string> | null> {
  const page = await admin.get('/admin');
  expect(page.statusCode).toBe(200);
  const section = /<section class="first-steps"[\s\S]*?<\/section>/.exec(page.body)?.[0];
  if (!section) return null;
  const items = section.split('<li').slice(1);
  const states = {} as Record<StepKey, string>;
  for (const key of KEYS) {
    const step = FIRST_STEPS_TEXT.steps[key];
    const item = items.find((html) => new RegExp(`href="${step.to}"[^>]*>${step.label}</a>`).test(html));
    expect(item, `${step.label} is listed with its link`).toBeDefined();
    states[key] = item!.includes(`>${FIRST_STEPS_TEXT.done}</span>`)
      ? FIRST_STEPS_TEXT.done
      : item!.includes(`>${FIRST_STEPS_TEXT.toDo}</span>`)
        ? FIRST_STEPS_TEXT.toDo
        : 'neither';
    expect(item).toContain(step.about);
  }
  expect(section).toContain(FIRST_STEPS_TEXT.title);
  return states;
}

const json = (method: 'PUT' | 'POST', url: string, body: unknown, headers = admin.headers) =>
  t.app.inject({
    method,
    url,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

describe('first steps on the console home', () => {
  it('ticks each step as it is done, and goes away once all four are', async () => {
    const { Done, 'To do': ToDo } = { Done: FIRST_STEPS_TEXT.done, 'To do': FIRST_STEPS_TEXT.toDo };
    expect(await stepsOnHome()).toEqual({ businessHours: ToDo, teammate: ToDo, savedReply: ToDo, testTicket: ToDo });
    expect((await admin.get('/admin')).body).toContain(FIRST_STEPS_TEXT.progress(0, 4));
    expect((await admin.get(deskApi.firstSteps.path)).json()).toEqual({
      businessHours: false,
      teammate: false,
      savedReply: false,
      testTicket: false,
    });

    // Business hours saved (the defaults, saved on purpose, count too).
    expect((await json('PUT', serviceLevelsApi.saveCalendar.path, DEFAULT_CALENDAR)).statusCode).toBe(200);
    expect((await stepsOnHome())?.businessHours).toBe(Done);

    // A teammate: a second admin account; a plain user does not count.
    await supportUser(t, { role: 'user' });
    expect((await stepsOnHome())?.teammate).toBe(ToDo);
    await supportUser(t, { role: 'admin' });
    expect((await stepsOnHome())?.teammate).toBe(Done);

    // A saved reply.
    const saved = await json('POST', deskApi.createSavedReply.path, {
      title: 'Where is my parcel',
      body: 'Thanks for asking: your parcel is on its way.',
    });
    expect(saved.statusCode).toBe(200);
    expect((await stepsOnHome())?.savedReply).toBe(Done);

    // A test ticket: a customer's ticket is not enough, an internal note is not an answer; an answer is.
    const customer = await supportUser(t);
    const { ticketId } = await customer.createTicket('General', 'Testing the desk: does this reach you?');
    expect((await stepsOnHome())?.testTicket).toBe(ToDo);
    const path = (p: string) => p.replace(':ticketId', ticketId);
    expect((await json('POST', path(deskApi.addNote.path), { messageBody: 'Our own test.' })).statusCode).toBe(200);
    expect((await stepsOnHome())?.testTicket).toBe(ToDo);
    expect(await stepsOnHome()).toEqual({ businessHours: Done, teammate: Done, savedReply: Done, testTicket: ToDo });
    expect((await admin.get('/admin')).body).toContain(FIRST_STEPS_TEXT.progress(3, 4));
    expect((await json('POST', path(deskApi.reply.path), { messageBody: 'It does: answered.' })).statusCode).toBe(200);

    // All four done: the list is gone, the console's sections stay.
    expect(await stepsOnHome()).toBeNull();
    expect((await admin.get('/admin')).body).toContain('Support inbox');
  });
});
