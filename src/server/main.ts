/**
 * The server's entry point (`npm start` imports it; tests and operators may run it directly). The
 * module loader fix goes first, then the server's modules load (serve.ts).
 */
import './module-hooks.ts';

await import('./serve.ts');
