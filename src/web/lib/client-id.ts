/**
 * A fresh id the client attaches to a ticket or message it sends. A retry of the same send reuses it,
 * so the server stores the ticket or message once however often the network made us try.
 */
export function newClientId(): string {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}
