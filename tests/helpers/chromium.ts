import fs from 'node:fs';

/**
 * Debian's headless shell (package `chromium-headless-shell`): Chromium's headless build without
 * the browser's window and UI layers, the one Playwright itself runs headless tests in. The browser
 * tests take about a third less time and CPU in it than in the full browser (decision 100).
 */
export const HEADLESS_SHELL_PATH = '/usr/lib/chromium/chromium-headless-shell';
/** Debian's full Chromium (package `chromium`): the fallback, and what the bench's Lighthouse runs. */
export const FULL_CHROMIUM_PATH = '/usr/bin/chromium';

/** The browser the tests drive: CHROMIUM_PATH if set, else the headless shell if installed, else Chromium. */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : FULL_CHROMIUM_PATH);

/** How to get both (the CI script installs what is missing). */
export const CHROMIUM_INSTALL = 'apt-get install -y chromium chromium-headless-shell';

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
