import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';

/**
 * Loads the pages' server build (build/server/index.js, made by `react-router build`). The server's
 * own bundle (scripts/build-server.ts) replaces this module with one that imports the copy of that
 * build it holds.
 */
export async function importServerBuild(file: string): Promise<ServerBuild> {
  return (await import(pathToFileURL(file).href)) as ServerBuild;
}
