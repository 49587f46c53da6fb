/**
 * `npm start`: builds the web app when the build is missing or stale, then starts the server in
 * production mode. The server runs from TypeScript directly (Node 22 type stripping).
 */
import { ensureBuild } from './ensure-build.ts';

performance.mark('start-up: node started');
ensureBuild();
performance.mark('start-up: build checked');
process.env.NODE_ENV ??= 'production';
await import('../src/server/main.ts');
