import { NETWORK_FAILURE } from '../../contracts/endpoint.ts';

/**
 * A page's form sent by its script, as the original client sent its calls (docs/product.md §7.2):
 * the browser gives up after 70 seconds, and a server it cannot reach is said in words. The form
 * goes to its route's action like any other (`clientAction` hands it on with `serverAction`), and
 * the form stays as it is, saying why, rather than the page being replaced by the error page.
 */
export const CALLABLE_TIMEOUT_MS = 70_000;
export const DEADLINE_MESSAGE = 'The request took too long. Please try again.';

export async function sendOrSay<T, U>(
  serverAction: () => Promise<T>,
  unreachable: (message: string) => U,
  timeoutMs?: number,
): Promise<T | U> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline =
    timeoutMs === undefined
      ? null
      : new Promise<U>((resolve) => {
          timer = setTimeout(() => resolve(unreachable(DEADLINE_MESSAGE)), timeoutMs);
        });
  try {
    return await (deadline ? Promise.race([serverAction(), deadline]) : serverAction());
  } catch (error) {
    // fetch fails with a TypeError when there is no network; a redirect (the action's success) or an
    // error the action itself raised goes on as React Router handles it.
    if (!(error instanceof TypeError)) throw error;
    return unreachable(NETWORK_FAILURE);
  } finally {
    clearTimeout(timer);
  }
}
