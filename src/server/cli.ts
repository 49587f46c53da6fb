import { parseArgs } from 'node:util';
import type { User } from '../contracts/auth.schemas.ts';
import fs from 'node:fs';
import path from 'node:path';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/connection.ts';
import { type DataDirLock, DataDirLockedError, lockDataDir } from './db/data-dir-lock.ts';
import { socketPath, socketUrl } from './db/local-socket.ts';
import { BackupError, createBackup, restoreBackup } from './backup.ts';
import { createStorage } from './storage/create-storage.ts';
import { AppError } from './errors.ts';
import { createAccountAdmin } from './modules/accounts/accounts.admin.service.ts';
import { createAccountsRepository } from './modules/accounts/accounts.repository.ts';
import { createSecondFactorAdmin } from './modules/second-factor/second-factor.cli.ts';

/**
 * `npm run cli -- <command>` (docs/design.md §4b): administers accounts on the configured database, at
 * any time: on PostgreSQL directly; on the embedded database directly when no server runs, or
 * through the running server's local socket (db/local-socket.ts). Returns the exit code; every
 * failure is one readable line.
 */
export const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  create-user   --email E --password P [--admin] [--unverified] [--totp-secret BASE32]
                                                                  create an account (verified unless --unverified);
                                                                  an admin with --totp-secret has that authenticator app at once
  set-totp      --email E --secret BASE32                         enrol an admin's authenticator app (TOTP) with this secret,
                                                                  confirmed at once (automation); replaces the earlier app
  reset-second-factor --email E                                   remove an admin's second factors and recovery codes and end
                                                                  their sessions: the next sign-in asks to set one up again
  set-password  --email E --password P                            set a password; ends every session of the account
  verify-email  --email E                                         mark the email address verified
  set-role      --email E --role user|admin                       change the role
  disable-user  --email E                                         disable the account; ends every session at once
  enable-user   --email E                                         enable a disabled account
  backup        --out FILE                                        one consistent archive of the database and the stored files
  restore       --from FILE                                       restore a backup into an empty DATA_DIR or database

Options:
  --password-stdin   read the password from standard input instead of --password (keeps it out of shell history)

The database is the one the server uses: DATABASE_URL, or the embedded one in DATA_DIR (default ./data).
There is no default account: create the first admin with create-user --admin.`;

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  readStdin(): Promise<string>;
}

class UsageError extends Error {}

/**
 * The database the server uses. PostgreSQL: directly, at any time. The embedded database: directly
 * when no server runs (taking its lock), or through the running server's local socket.
 */
async function openCliDatabase(config: Config, onLock: (lock: DataDirLock) => void): Promise<DatabaseHandle> {
  if (config.database.kind === 'postgres') return openDatabase(config.database);
  try {
    onLock(lockDataDir(config.dataDir));
  } catch (error) {
    if (!(error instanceof DataDirLockedError) || !fs.existsSync(socketPath(config.dataDir))) throw error;
    return openDatabase({ kind: 'postgres', url: socketUrl(config.dataDir), poolSize: 1, migrate: false });
  }
  return openDatabase(config.database);
}

const describe = (user: User) => `${user.email} (${user.role}, ${user.emailVerified ? 'verified' : 'not verified'})`;

export async function runCli(argv: string[], env: Record<string, string | undefined>, io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    io.out(USAGE);
    return command ? 0 : 1;
  }
  let lock: DataDirLock | undefined;
  let close: (() => Promise<void>) | undefined;
  try {
    const { values } = (() => {
      try {
        return parseArgs({
          args: rest,
          strict: true,
          options: {
            email: { type: 'string' },
            password: { type: 'string' },
            'password-stdin': { type: 'boolean' },
            role: { type: 'string' },
            admin: { type: 'boolean' },
            unverified: { type: 'boolean' },
            out: { type: 'string' },
            from: { type: 'string' },
            'totp-secret': { type: 'string' },
            secret: { type: 'string' },
          },
        });
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    })();
    if (command === 'backup' || command === 'restore') {
      const file = command === 'backup' ? values.out : values.from;
      if (!file) throw new UsageError(command === 'backup' ? 'backup needs --out FILE.' : 'restore needs --from FILE.');
      const config = loadConfig(env);
      const database = await openCliDatabase(config, (taken) => (lock = taken));
      const storage = await createStorage(config.storage);
      close = async () => {
        await storage.close();
        await database.close();
      };
      const manifest =
        command === 'backup'
          ? await createBackup({ database, storage, out: path.resolve(file) })
          : await restoreBackup({ database, storage, from: path.resolve(file) });
      const rows = Object.values(manifest.tables).reduce((sum, n) => sum + n, 0);
      io.out(
        `${command === 'backup' ? 'Backed up' : 'Restored'} ${rows} rows in ${Object.keys(manifest.tables).length} tables and ${manifest.files.length} files ${command === 'backup' ? `to ${file}` : `from ${file}`} (made ${manifest.createdAt} on ${manifest.source}).`,
      );
      if (manifest.missingFiles.length > 0) {
        io.err(`Referenced but missing from the storage (not in the backup): ${manifest.missingFiles.join(', ')}`);
      }
      return 0;
    }
    const known = [
      'create-user',
      'set-password',
      'verify-email',
      'set-role',
      'disable-user',
      'enable-user',
      'set-totp',
      'reset-second-factor',
    ];
    if (!known.includes(command)) throw new UsageError(`Unknown command "${command}".`);
    if (!values.email) throw new UsageError(`${command} needs --email.`);
    const needsPassword = command === 'create-user' || command === 'set-password';
    let password = values.password;
    if (needsPassword && values['password-stdin']) password = (await io.readStdin()).replace(/\r?\n$/, '');
    if (needsPassword && !password) throw new UsageError(`${command} needs --password or --password-stdin.`);
    if (command === 'set-role' && !values.role) throw new UsageError('set-role needs --role user or --role admin.');
    if (command === 'set-totp' && !values.secret) throw new UsageError('set-totp needs --secret BASE32.');
    if (values['totp-secret'] !== undefined && !values.admin)
      throw new UsageError('--totp-secret is for admins: add --admin.');

    const config = loadConfig(env);
    const database = await openCliDatabase(config, (taken) => (lock = taken));
    close = () => database.close();
    const accountsRepository = createAccountsRepository(database.db);
    const admin = createAccountAdmin(accountsRepository);
    const secondFactor = createSecondFactorAdmin(database.db, accountsRepository);

    switch (command) {
      case 'create-user': {
        const totpSecret = values['totp-secret'];
        if (totpSecret !== undefined) secondFactor.checkSecret(totpSecret);
        const user = await admin.createUser({
          email: values.email,
          password,
          role: values.admin ? 'admin' : 'user',
          verified: !values.unverified,
        });
        if (totpSecret !== undefined) await secondFactor.setTotp({ email: user.email, secret: totpSecret });
        io.out(`Created ${describe(user)}${totpSecret === undefined ? '' : ' with an authenticator app (TOTP)'}.`);
        break;
      }
      case 'set-totp':
        io.out(
          `Enrolled an authenticator app (TOTP) for ${(await secondFactor.setTotp({ email: values.email, secret: values.secret! })).email}.`,
        );
        break;
      case 'reset-second-factor': {
        const reset = await secondFactor.reset({ email: values.email });
        io.out(
          `Reset the second factor of ${reset.email}: removed ${reset.factors} factor(s) and ${reset.codes} recovery code(s); ended ${reset.endedSessions} session(s).`,
        );
        break;
      }
      case 'set-password': {
        const { user, endedSessions } = await admin.setPassword({ email: values.email, password });
        io.out(`Set the password of ${user.email}; ended ${endedSessions} session(s).`);
        break;
      }
      case 'verify-email':
        io.out(`Verified ${describe(await admin.verifyEmail({ email: values.email }))}.`);
        break;
      case 'set-role':
        io.out(`Role set: ${describe(await admin.setRole({ email: values.email, role: values.role }))}.`);
        break;
      case 'disable-user': {
        const { user, endedSessions } = await admin.disableUser({ email: values.email });
        io.out(`Disabled ${user.email}; ended ${endedSessions} session(s).`);
        break;
      }
      case 'enable-user':
        io.out(`Enabled ${(await admin.enableUser({ email: values.email })).email}.`);
        break;
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof DataDirLockedError) {
      io.err(
        `${error.message}\nThat server offers no local socket for the command line (its start-up log says why). ` +
          'Stop the server and try again (with PostgreSQL, DATABASE_URL, it can run at any time).',
      );
    } else if (error instanceof ConfigError || error instanceof AppError || error instanceof BackupError) {
      io.err(error.message);
    } else {
      io.err(`The command failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return 1;
  } finally {
    await close?.().catch(() => {});
    lock?.release();
  }
}
