/**
 * `npm run cli -- <command>`: account administration (create-user, set-password, verify-email,
 * set-role, disable-user, enable-user). `npm run cli -- help` lists them.
 */
import '../src/server/module-hooks.ts';

// Loaded after the module loader fix (src/server/module-hooks.ts).
const { runCli } = await import('../src/server/cli.ts');

const code = await runCli(process.argv.slice(2), process.env, {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  async readStdin() {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
});
process.exit(code);
