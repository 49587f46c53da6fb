/**
 * `npm start`: builds the web app and the server's bundle when either is missing or stale
 * (ensure-build.js), then starts the server from its bundle in production mode
 * (scripts/build-server.ts, docs/decisions/158-server-bundle.md). JavaScript, not TypeScript:
 * Node's type stripper takes 0.1 s to load, and nothing else a start loads needs it.
 */
import { pathToFileURL } from 'node:url';
import { ensureBuild, SERVER_BUNDLE } from './ensure-build.js';

performance.mark('start-up: node started');
ensureBuild();
performance.mark('start-up: build checked');
process.env.NODE_ENV ??= 'production';
await import(pathToFileURL(SERVER_BUNDLE).href);
