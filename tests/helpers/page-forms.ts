import type { TestApp } from './test-app.ts';

/**
 * What a browser sends when a page's form is submitted without JavaScript: the fields urlencoded,
 * asking for HTML. `headers` adds what the test's browser would say besides (its cookie, and
 * `origin` or `sec-fetch-site` for a form of this site).
 */
export function postPageForm(t: TestApp, url: string, fields: Record<string, string>, headers: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url,
    payload: new URLSearchParams(fields).toString(),
    headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}
