/**
 * Debian's Chromium as the browser tests and the bench start it: no sandbox (these machines run as
 * root), no GPU, and nothing that would reach the internet on its own (updates, sync, QUIC probes).
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
