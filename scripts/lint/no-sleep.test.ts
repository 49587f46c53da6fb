import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
import { noSleep } from './no-sleep.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2024, sourceType: 'module' },
});

tester.run('testing/no-sleep', noSleep, {
  valid: [
    // Waiting for an effect.
    `await waitFor('the mail', () => mails.find((m) => m.to === 'a@b.nz'));`,
    `await expect(page.getByText('Sent')).toBeVisible();`,
    // A deadline rejects; it does not sleep.
    `new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('late')), 5000); });`,
    // A deadline: something else resolves the promise too, or it is raced against the awaited thing.
    `new Promise((resolve) => { const timer = setTimeout(() => resolve(false), 5000); child.once('exit', () => resolve(true)); });`,
    `await Promise.race([stream.ended, new Promise((resolve) => setTimeout(() => resolve('open'), 30000))]);`,
    // A reason over two comment lines covers the line after them.
    `// Time is the subject: a server that followed the link would connect within moments;
// nothing else marks the moment it did not.
await new Promise((resolve) => setTimeout(resolve, 300));`,
    // A timer that does something else than resolving the promise it is in.
    `setTimeout(() => controller.abort(), 1000);`,
    // Time itself is the subject, said on the line or the line above.
    `await sleep(randomKillDelay()); // Time is the subject: the kill lands at a random moment.`,
    `// Time is the subject: the stream must stay open past the keep-alive interval.
await new Promise((resolve) => setTimeout(resolve, 300));`,
    `import { setTimeout as pause } from 'node:timers/promises';
await pause(25); // Time is the subject: the pause between two looks of a poll.`,
  ],
  invalid: [
    { code: `await page.waitForTimeout(500);`, errors: [{ messageId: 'sleep' }] },
    { code: `await sleep(200);`, errors: [{ messageId: 'sleep' }] },
    { code: `await delay(10);`, errors: [{ messageId: 'sleep' }] },
    { code: `await new Promise((resolve) => setTimeout(resolve, 300));`, errors: [{ messageId: 'sleep' }] },
    { code: `await new Promise((r) => setTimeout(() => r(undefined), 300));`, errors: [{ messageId: 'sleep' }] },
    {
      code: `import { setTimeout as wait } from 'node:timers/promises';\nawait wait(100);`,
      errors: [{ messageId: 'sleep' }],
    },
    // A comment that does not say why is not enough.
    { code: `await sleep(200); // wait a bit`, errors: [{ messageId: 'sleep' }] },
    // Two lines above is too far.
    { code: `// Time is the subject: x\n\nawait sleep(1);`, errors: [{ messageId: 'sleep' }] },
  ],
});
