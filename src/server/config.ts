import path from 'node:path';
import type { StaffRole } from '../contracts/roles.ts';
import { z } from '../contracts/zod.ts';

/**
 * The only reader of process.env (house style, habit 1). Parsed once at start-up; a wrong value
 * stops the server with a message that names the variable. One exception, read at each use: the
 * tests' password-hashing cost (passwordHashingCost below).
 */

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'], {
      error: 'must be one of true, false, on, off, 1, 0, yes, no',
    })
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'on', 'yes'].includes(v)));

const port = <F extends number | undefined>(fallback: F) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback as number | F;
      const n = Number(v);
      if (!/^\d+$/.test(v) || n > 65535) {
        ctx.addIssue({ code: 'custom', message: 'must be a whole number from 0 to 65535' });
        return z.NEVER;
      }
      return n;
    });

const positiveInt = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      if (!/^\d+$/.test(v) || Number(v) < 1) {
        ctx.addIssue({ code: 'custom', message: 'must be a whole number of at least 1' });
        return z.NEVER;
      }
      return Number(v);
    });

const nonNegativeInt = (fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      if (!/^\d+$/.test(v)) {
        ctx.addIssue({ code: 'custom', message: 'must be a whole number of at least 0' });
        return z.NEVER;
      }
      return Number(v);
    });

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .transform((v) => v.replace(/\/+$/, ''));

/**
 * A mail server's URL (`<scheme>://` or `<scheme>s://`, which may hold user:password@): checked
 * here so a bad URL stops start-up with this message, never with an error echoing the password.
 */
const mailServerUrl = (scheme: 'smtp' | 'imap', example: string) =>
  z
    .string()
    .regex(new RegExp(`^${scheme}s?://[^/\\s]+`), `must be an ${scheme}:// or ${scheme}s:// URL, e.g. ${example}`)
    .refine((v) => URL.canParse(v) && new URL(v).hostname !== '', `must be a valid URL, e.g. ${example}`)
    .optional();

const EnvSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'], {
      error: 'must be development, production or test',
    })
    .default('development'),
  HOST: z.string().min(1, 'must not be empty').default('0.0.0.0'),
  PORT: port(3000),
  DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// connection URL')
    .optional(),
  PUBLIC_BASE_URL: httpUrl.optional(),
  COMPANY_NAME: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(80, 'must be at most 80 characters')
    .default('Bagspace'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  APP_STORE_URL: httpUrl.default('https://www.apple.com/nz/app-store/'),
  GOOGLE_PLAY_URL: httpUrl.default('https://play.google.com/store/apps'),
  SEED_DEMO_CONTENT: bool(true),
  RATE_LIMITS: z
    .enum(['on', 'off'], { error: 'must be on or off' })
    .default('on')
    .transform((v) => v === 'on'),
  TRUST_PROXY: bool(false),
  REGISTRATIONS_PER_IP_PER_HOUR: positiveInt(5),
  PARTNER_STATUS_READS_PER_MIN: positiveInt(60),
  STORAGE: z.enum(['local', 's3'], { error: 'must be local or s3' }).default('local'),
  S3_ENDPOINT: httpUrl.optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool(true),
  // Accounts and mail (docs/decisions/041-sessions.md).
  SMTP_URL: mailServerUrl('smtp', 'smtp://user:pass@mail.example.com:587'),
  MAIL_FROM: z
    .string()
    .trim()
    .regex(
      /^(?:[^<>@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/,
      'must be an address, e.g. no-reply@example.com or "Bagspace <no-reply@example.com>"',
    )
    .optional(),
  // The address staff answers come from, with the agent's name (docs/decisions/136-names-and-signatures.md).
  SUPPORT_FROM: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[^\s<>@"]+@[^\s<>@"]+$/, "must be an address alone, e.g. support@example.com (the name is the agent's)")
    .optional(),
  // The mail outbox and notifications (docs/decisions/090-mail-outbox.md).
  MAIL_RETRY_HOURS: positiveInt(24),
  MAIL_RETRY_FIRST_SECONDS: positiveInt(30),
  NOTIFY_DELAY_SECONDS: nonNegativeInt(60),
  MAIL_LEASE_SECONDS: positiveInt(300),
  SESSION_IDLE_MINUTES: positiveInt(60),
  SESSION_ABSOLUTE_HOURS: positiveInt(12),
  SESSION_COOKIE_SAMESITE: z.enum(['lax', 'strict'], { error: 'must be lax or strict' }).default('lax'),
  LOGIN_FAILURES_PER_ACCOUNT: positiveInt(10),
  LOGIN_FAILURES_PER_IP: positiveInt(10),
  LOGIN_WINDOW_MINUTES: positiveInt(15),
  ACCOUNT_EMAILS_PER_HOUR: positiveInt(5),
  ACCOUNT_REQUESTS_PER_IP_PER_HOUR: positiveInt(30),
  ALLOW_UNSAFE_DURABILITY: bool(false),
  // Reply by email (docs/decisions/105-reply-by-email.md, docs/operations.md#reply-by-email).
  REPLY_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .regex(
      /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/,
      'must be a domain name, e.g. reply.example.com',
    )
    .optional(),
  INBOUND_ADDRESS: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[^\s<>@]+@[^\s<>@]+$/, 'must be an address, e.g. support@reply.example.com')
    .optional(),
  // Unset: no SMTP receiver; 0 picks a free port (tests).
  INBOUND_SMTP_PORT: port(undefined),
  INBOUND_SMTP_HOST: z.string().min(1, 'must not be empty').default('0.0.0.0'),
  INBOUND_AUTHSERV_ID: z.string().trim().min(1).optional(),
  IMAP_URL: mailServerUrl('imap', 'imaps://user:pass@imap.example.com/INBOX'),
  IMAP_MOVE_TO: z.string().trim().min(1, 'must not be empty').default('Processed'),
  REPLY_ADDRESS_DAYS: positiveInt(180),
  // Every received mail is decided (docs/decisions/131-every-inbound-mail-decided.md): tries before it is held.
  INBOUND_MAX_ATTEMPTS: positiveInt(10).refine((v) => v <= 100, 'must be at most 100'),
  // Unknown reply addresses one SMTP connection may try before its answers slow down and it is closed.
  INBOUND_SMTP_UNKNOWN_LIMIT: positiveInt(20),
  INBOUND_SMTP_SLOW_MS: nonNegativeInt(5000).refine((v) => v <= 60_000, 'must be at most 60000 (a minute)'),
  // Metrics (docs/operations.md#metrics): a Bearer token for /metrics on the app's port, or a port on 127.0.0.1.
  METRICS_TOKEN: z.string().min(24, 'must be at least 24 characters (a long random secret)').optional(),
  METRICS_PORT: port(0),
  // Support tickets and live streams (docs/decisions/050-live-support-over-sse.md).
  TICKETS_PER_USER_PER_HOUR: positiveInt(10),
  ATTACHMENTS_PER_USER_PER_HOUR: positiveInt(60),
  STREAMS_PER_SESSION: positiveInt(100),
  SSE_HEARTBEAT_SECONDS: positiveInt(15),
  // Who has a ticket open (docs/decisions/142-presence.md): the console's pages beat every 4 s.
  PRESENCE_SECONDS: positiveInt(12).refine((v) => v >= 5 && v <= 300, 'must be 5 to 300 (pages beat every 4 s)'),
  // Account deletion (docs/decisions/098-account-deletion-and-erasure.md).
  ERASE_AFTER_DAYS: nonNegativeInt(30).refine((v) => v <= 3650, 'must be at most 3650 (ten years)'),
  ERASE_CHECK_SECONDS: positiveInt(300),
  // Service-level warnings and the auto-close (docs/decisions/108-service-levels.md).
  SERVICE_LEVEL_CHECK_MS: positiveInt(15_000),
  SLA_WARNING_MINUTES: nonNegativeInt(30).refine((v) => v <= 1440, 'must be at most 1440 (a day)'),
  AUTO_CLOSE_WORKING_DAYS: nonNegativeInt(7).refine((v) => v <= 250, 'must be at most 250 (about a year)'),
  // The NZBN register lookup (docs/decisions/114-nzbn-lookup.md); without a key, no lookups at all.
  NZBN_API_KEY: z.string().trim().min(1, 'must not be empty').optional(),
  NZBN_API_URL: httpUrl.default('https://api.business.govt.nz/gateway/nzbn/v5'),
  NZBN_LOOKUP_TIMEOUT_MS: positiveInt(5000).refine((v) => v <= 60_000, 'must be at most 60000 (a minute)'),
  NZBN_LOOKUP_CHECK_MS: positiveInt(30_000),
  NZBN_LOOKUP_MAX_ATTEMPTS: positiveInt(10),
  // Licence expiry reminders and the hold (docs/decisions/115-licence-expiry.md).
  LICENSE_EXPIRY_CHECK_MS: positiveInt(300_000),
  // Staff sign-in with the company's identity provider (docs/decisions/148-staff-sign-in-oidc.md).
  OIDC_ISSUER: httpUrl.optional(),
  OIDC_CLIENT_ID: z.string().trim().min(1, 'must not be empty').optional(),
  OIDC_CLIENT_SECRET: z.string().min(1, 'must not be empty').optional(),
  OIDC_PROVIDER_NAME: z.string().trim().min(1, 'must not be empty').max(60).default('your company account'),
  OIDC_SCOPES: z.string().trim().min(1).default('openid email profile offline_access'),
  // Comma-separated email domains whose staff may sign in this way (none: any the provider vouches for).
  OIDC_ALLOWED_DOMAINS: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9.-]+(\s*,\s*[a-z0-9.-]+)*$/, 'must be domains separated by commas, e.g. bagspace.nz,bagspace.co.nz')
    .optional(),
  OIDC_GROUPS_CLAIM: z.string().trim().min(1).default('groups'),
  // group=role pairs, comma-separated, e.g. desk-leads=lead,desk=agent: the roles follow the groups at each sign-in.
  OIDC_GROUP_ROLES: z
    .string()
    .trim()
    .regex(
      /^[^=,]+=(admin|lead|agent|partner-reviewer|auditor)(\s*,\s*[^=,]+=(admin|lead|agent|partner-reviewer|auditor))*$/,
      'must be group=role pairs separated by commas (roles: admin, lead, agent, partner-reviewer, auditor)',
    )
    .optional(),
  // amr values that mean the provider asked a second factor itself (then ours is not asked again).
  OIDC_SECOND_FACTOR_AMR: z.string().trim().default('mfa,otp,hwk,swk,sc,fpt,face'),
  OIDC_RECHECK_SECONDS: positiveInt(300).refine((v) => v <= 3600, 'must be at most 3600 (an hour)'),
  STAFF_PASSWORD_SIGN_IN: bool(true),
  // Service API keys and webhooks (docs/integrations.md).
  API_KEY_REQUESTS_PER_MINUTE: positiveInt(600),
  WEBHOOK_TIMEOUT_SECONDS: positiveInt(10).refine((v) => v <= 30, 'must be at most 30'),
  WEBHOOK_POLL_MS: positiveInt(1000),
  // Plain-http webhook endpoints (off in production: deliveries carry customers' words).
  WEBHOOK_ALLOW_HTTP: bool(false),
  // The delivery card on a ticket (docs/decisions/151-delivery-card.md): where the app answers
  // about a delivery, and the Standard Webhooks secret the requests are signed with.
  DELIVERY_CONTEXT_URL: httpUrl.optional(),
  DELIVERY_CONTEXT_SECRET: z
    .string()
    .trim()
    .refine(
      (v) => deliverySecretBytes(v) !== null,
      'must be whsec_ followed by the base64 of 24 to 64 random bytes (e.g. whsec_$(openssl rand -base64 32))',
    )
    .optional(),
});

/** The bytes of a Standard Webhooks secret (`whsec_` + base64 of 24 to 64 bytes), or null when it is not one. */
function deliverySecretBytes(secret: string): Buffer | null {
  const match = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(secret);
  if (!match) return null;
  const bytes = Buffer.from(match[1]!, 'base64');
  return bytes.length >= 24 && bytes.length <= 64 ? bytes : null;
}

export type Config = ReturnType<typeof buildConfig>;

/** Variables whose values may hold credentials (user:password@ in a URL). */
const SECRET_VARIABLES = new Set(['DATABASE_URL', 'SMTP_URL', 'IMAP_URL', 'OIDC_CLIENT_SECRET']);

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function buildConfig(env: z.infer<typeof EnvSchema>) {
  const dataDir = path.resolve(env.DATA_DIR);
  const localUrl = `http://localhost:${env.PORT}`;
  const publicBaseUrl = env.PUBLIC_BASE_URL ?? localUrl;
  return {
    env: env.NODE_ENV,
    isProduction: env.NODE_ENV === 'production',
    host: env.HOST,
    port: env.PORT,
    dataDir,
    database: env.DATABASE_URL
      ? ({ kind: 'postgres', url: env.DATABASE_URL } as const)
      : ({ kind: 'pglite', dir: path.join(dataDir, 'db') } as const),
    publicBaseUrl,
    companyName: env.COMPANY_NAME,
    logLevel: env.LOG_LEVEL,
    appStoreUrl: env.APP_STORE_URL,
    googlePlayUrl: env.GOOGLE_PLAY_URL,
    seedDemoContent: env.SEED_DEMO_CONTENT,
    rateLimits: env.RATE_LIMITS,
    trustProxy: env.TRUST_PROXY,
    registrationsPerIpPerHour: env.REGISTRATIONS_PER_IP_PER_HOUR,
    partnerStatusReadsPerIpPerMinute: env.PARTNER_STATUS_READS_PER_MIN,
    storage:
      env.STORAGE === 's3'
        ? ({
            kind: 's3',
            endpoint: env.S3_ENDPOINT,
            region: env.S3_REGION,
            bucket: env.S3_BUCKET as string,
            accessKeyId: env.S3_ACCESS_KEY_ID,
            secretAccessKey: env.S3_SECRET_ACCESS_KEY,
            forcePathStyle: env.S3_FORCE_PATH_STYLE,
          } as const)
        : ({ kind: 'local', dir: path.join(dataDir, 'files') } as const),
    mail: {
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM ?? `"${env.COMPANY_NAME.replaceAll('"', '')}" <no-reply@${new URL(publicBaseUrl).hostname}>`,
      /** Where customers' mail about their tickets comes from (the name is the agent's or '<company> Support'). */
      supportAddress:
        env.SUPPORT_FROM ?? env.INBOUND_ADDRESS ?? `support@${env.REPLY_DOMAIN ?? new URL(publicBaseUrl).hostname}`,
      outboxDir: path.join(dataDir, 'outbox'),
      retryHours: env.MAIL_RETRY_HOURS,
      retryFirstSeconds: env.MAIL_RETRY_FIRST_SECONDS,
      notifyDelaySeconds: env.NOTIFY_DELAY_SECONDS,
      leaseSeconds: env.MAIL_LEASE_SECONDS,
    },
    inbound: {
      replyDomain: env.REPLY_DOMAIN,
      /** The general support address: mail to it from a verified account opens a ticket. */
      address: env.INBOUND_ADDRESS ?? (env.REPLY_DOMAIN ? `support@${env.REPLY_DOMAIN}` : undefined),
      smtpPort: env.INBOUND_SMTP_PORT,
      smtpHost: env.INBOUND_SMTP_HOST,
      authservId: env.INBOUND_AUTHSERV_ID,
      imapUrl: env.IMAP_URL,
      imapMoveTo: env.IMAP_MOVE_TO,
      replyAddressDays: env.REPLY_ADDRESS_DAYS,
      /** Tries to decide a received mail before it is held for an admin with its reason. */
      maxAttempts: env.INBOUND_MAX_ATTEMPTS,
      /** After this many unknown reply addresses, a connection's next answer comes slowly and closes it. */
      unknownRecipientLimit: env.INBOUND_SMTP_UNKNOWN_LIMIT,
      slowAnswerMs: env.INBOUND_SMTP_SLOW_MS,
    },
    sessions: {
      idleMs: env.SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: env.SESSION_ABSOLUTE_HOURS * 3_600_000,
      // `__Host-` needs Secure, which a browser only keeps over https; plain-http localhost drops both (docs/design.md §5).
      cookieName: publicBaseUrl.startsWith('https://') ? '__Host-session' : 'session',
      cookieSecure: publicBaseUrl.startsWith('https://'),
      sameSite: env.SESSION_COOKIE_SAMESITE,
    },
    loginThrottle: {
      perAccount: env.LOGIN_FAILURES_PER_ACCOUNT,
      perIp: env.LOGIN_FAILURES_PER_IP,
      windowMs: env.LOGIN_WINDOW_MINUTES * 60_000,
    },
    accountEmailsPerHour: env.ACCOUNT_EMAILS_PER_HOUR,
    accountRequestsPerIpPerHour: env.ACCOUNT_REQUESTS_PER_IP_PER_HOUR,
    allowUnsafeDurability: env.ALLOW_UNSAFE_DURABILITY,
    metrics: { token: env.METRICS_TOKEN, port: env.METRICS_PORT || undefined },
    support: {
      ticketsPerUserPerHour: env.TICKETS_PER_USER_PER_HOUR,
      attachmentsPerUserPerHour: env.ATTACHMENTS_PER_USER_PER_HOUR,
      streamsPerSession: env.STREAMS_PER_SESSION,
      heartbeatMs: env.SSE_HEARTBEAT_SECONDS * 1000,
      presenceTtlMs: env.PRESENCE_SECONDS * 1000,
    },
    privacy: { eraseAfterDays: env.ERASE_AFTER_DAYS, eraseCheckMs: env.ERASE_CHECK_SECONDS * 1000 },
    integrations: {
      keyRequestsPerMinute: env.API_KEY_REQUESTS_PER_MINUTE,
      webhookTimeoutMs: env.WEBHOOK_TIMEOUT_SECONDS * 1000,
      webhookPollMs: env.WEBHOOK_POLL_MS,
      /** Outside production plain http is allowed (a receiver on this machine while developing). */
      webhookAllowHttp: env.WEBHOOK_ALLOW_HTTP || env.NODE_ENV !== 'production',
    },
    serviceLevels: {
      checkMs: env.SERVICE_LEVEL_CHECK_MS,
      /** 'Due soon' is told this long before a due time; 0: only 'late'. */
      warningMinutes: env.SLA_WARNING_MINUTES,
      /** An answered ticket with no reply closes after this many working days; 0: never. */
      autoCloseWorkingDays: env.AUTO_CLOSE_WORKING_DAYS,
    },
    /** The NZBN register lookup; null without NZBN_API_KEY (nothing is looked up). */
    nzbnLookup: env.NZBN_API_KEY
      ? {
          apiKey: env.NZBN_API_KEY,
          apiUrl: env.NZBN_API_URL,
          timeoutMs: env.NZBN_LOOKUP_TIMEOUT_MS,
          checkMs: env.NZBN_LOOKUP_CHECK_MS,
          maxAttempts: env.NZBN_LOOKUP_MAX_ATTEMPTS,
        }
      : null,
    licenseExpiry: { checkMs: env.LICENSE_EXPIRY_CHECK_MS },
    /** Staff sign-in with OpenID Connect; null without OIDC_ISSUER (password sign-in only). */
    oidc:
      env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
        ? {
            issuer: env.OIDC_ISSUER,
            clientId: env.OIDC_CLIENT_ID,
            clientSecret: env.OIDC_CLIENT_SECRET,
            providerName: env.OIDC_PROVIDER_NAME,
            scopes: env.OIDC_SCOPES,
            allowedDomains: (env.OIDC_ALLOWED_DOMAINS ?? '')
              .split(',')
              .map((d) => d.trim())
              .filter(Boolean),
            groupsClaim: env.OIDC_GROUPS_CLAIM,
            groupRoles: (env.OIDC_GROUP_ROLES ?? '')
              .split(',')
              .map((pair) => pair.split('=').map((part) => part.trim()) as [string, StaffRole])
              .filter(([group]) => Boolean(group)),
            secondFactorAmr: env.OIDC_SECOND_FACTOR_AMR.split(',')
              .map((v) => v.trim())
              .filter(Boolean),
            recheckMs: env.OIDC_RECHECK_SECONDS * 1000,
          }
        : null,
    /** Whether staff may still sign in with a password (off once everyone uses the provider). */
    staffPasswordSignIn: env.STAFF_PASSWORD_SIGN_IN,
    /** The delivery card's source; null without DELIVERY_CONTEXT_URL (no card is shown). */
    deliveryContext:
      env.DELIVERY_CONTEXT_URL && env.DELIVERY_CONTEXT_SECRET
        ? { url: env.DELIVERY_CONTEXT_URL, secret: deliverySecretBytes(env.DELIVERY_CONTEXT_SECRET)! }
        : null,
  };
}

/**
 * The argon2 cost new password hashes get: 'test' (1 MiB, one pass) only when NODE_ENV=test and
 * PASSWORD_HASHING=test are both set, as vitest sets them for the test processes; 'policy' anywhere
 * else, production included. Unlike the rest of the configuration it is read at each hash, so the
 * tests of the policy can switch back to it (decision 104).
 */
export function passwordHashingCost(source: Record<string, string | undefined> = process.env): 'policy' | 'test' {
  return source.NODE_ENV === 'test' && source.PASSWORD_HASHING === 'test' ? 'test' : 'policy';
}

/** Parses the environment; throws ConfigError naming every wrong variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "not set": a blank line in an env file must not override a default.
  const env = Object.fromEntries(
    Object.keys(EnvSchema.shape).map((key) => [key, source[key] === '' ? undefined : source[key]]),
  );
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      const value = env[name];
      // Values that may carry credentials are never echoed (LOG-02): the name is enough to fix them.
      const secret = SECRET_VARIABLES.has(name) || /SECRET|PASSWORD|KEY/.test(name);
      return `  ${name} ${issue.message}${value === undefined || secret ? '' : ` (got "${value}")`}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (parsed.data.SESSION_ABSOLUTE_HOURS * 60 < parsed.data.SESSION_IDLE_MINUTES) {
    throw new ConfigError(
      'Invalid configuration:\n  SESSION_ABSOLUTE_HOURS must be at least as long as SESSION_IDLE_MINUTES ' +
        `(got ${parsed.data.SESSION_ABSOLUTE_HOURS} hours and ${parsed.data.SESSION_IDLE_MINUTES} minutes)`,
    );
  }
  const oidcSet = [parsed.data.OIDC_ISSUER, parsed.data.OIDC_CLIENT_ID, parsed.data.OIDC_CLIENT_SECRET].filter(Boolean);
  if (oidcSet.length > 0 && oidcSet.length < 3) {
    throw new ConfigError(
      'Invalid configuration:\n  OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together',
    );
  }
  if (!parsed.data.STAFF_PASSWORD_SIGN_IN && oidcSet.length === 0) {
    throw new ConfigError(
      'Invalid configuration:\n  STAFF_PASSWORD_SIGN_IN=off needs OIDC_ISSUER (staff would have no way to sign in)',
    );
  }
  if (Boolean(parsed.data.DELIVERY_CONTEXT_URL) !== Boolean(parsed.data.DELIVERY_CONTEXT_SECRET)) {
    throw new ConfigError(
      'Invalid configuration:\n  DELIVERY_CONTEXT_URL and DELIVERY_CONTEXT_SECRET must be set together (the requests are signed)',
    );
  }
  if (parsed.data.STORAGE === 's3' && !parsed.data.S3_BUCKET) {
    throw new ConfigError('Invalid configuration:\n  S3_BUCKET must be set when STORAGE=s3');
  }
  return buildConfig(parsed.data);
}
