import fs from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import testRules from './scripts/lint/no-sleep.js';

const dirs = (parent) =>
  fs
    .readdirSync(parent, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/**
 * Who may import whom, checked on resolved paths: the browser app, the server and the contracts
 * they share stay apart; a server module reaches another module through its service, never its
 * repository (one module owns each table); a web feature does not reach into another feature
 * (shared pieces live in components/ and lib/).
 */
const zones = [
  { target: './src/web', from: './src/server', message: 'The web app must not import server code.' },
  {
    target: './src/server',
    from: './src/web',
    message: 'The server must not import the web app: shared types live in src/contracts.',
  },
  {
    target: './src/contracts',
    from: ['./src/server', './src/web'],
    message: 'Contracts are shared by both sides and import neither.',
  },
  ...dirs('src/server/modules').map((name) => ({
    target: `./src/server/modules/${name}/**`,
    from: `./src/server/modules/!(${name})/**/!(index|*.service).ts`,
    message:
      "Reach another module through its index.ts or its service's types: its repository, routes and workers belong to it.",
  })),
  {
    target: ['./src/web/components', './src/web/lib'],
    from: ['./src/web/features', './src/web/routes'],
    message: 'components/ and lib/ are shared by every page: they import neither features nor routes.',
  },
  ...dirs('src/web/features').map((name) => ({
    target: `./src/web/features/${name}/**`,
    from: `./src/web/features/!(${name})/**`,
    message: 'Features do not import each other: move what both need to components/ or lib/.',
  })),
];

export default tseslint.config(
  { ignores: ['build/', '.react-router/', 'node_modules/', '.tmp/', 'data/', 'test-results/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': 'off',
    },
  },
  {
    // The scripts in JavaScript: start.js and ensure-build.js run at every `npm start`, where loading
    // Node's type stripper would cost 0.1 s (decision 158). Node's globals.
    files: ['scripts/**/*.js'],
    languageOptions: { globals: { console: 'readonly', performance: 'readonly', process: 'readonly' } },
  },
  {
    // Only config.ts reads the environment (house style, habit 1); scripts and tests set it up.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/server/config.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through src/server/config.ts.' },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })] },
    rules: { 'import-x/no-restricted-paths': ['error', { zones }] },
  },
  {
    // A test waits for the effect it needs (tests/helpers/wait.ts), never for a fixed time: sleeps
    // only where a comment says why time itself is the subject (scripts/lint/no-sleep.js).
    files: ['tests/**/*.ts', 'src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    plugins: { testing: testRules },
    rules: { 'testing/no-sleep': 'error' },
  },
  {
    // One zod, set up once for the browser's CSP (src/contracts/zod.ts), with fieldErrors beside it.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/contracts/zod.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'zod', message: 'Import { z } from src/contracts/zod.ts, where it is set up once.' }] },
      ],
    },
  },
);
