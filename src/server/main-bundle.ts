/**
 * The entry point of the server's bundle (scripts/build-server.ts; `npm start` runs it,
 * docs/decisions/158-server-bundle.md): Node's compile cache, then the server. Not main.ts's module
 * hooks: they resolve drizzle-orm's files and keep our TypeScript stripped, and the bundle holds
 * neither.
 */
import './compile-cache.ts';

await import('./serve.ts');
