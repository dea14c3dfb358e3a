// @ts-check
// Lint = typescript-eslint's type-checked recommendations, minus the rules that are mostly noise here (each with
// its reason), plus the import boundaries of docs/adr/0005-lint-enforced-layering.md: the arrows of the
// architecture as rules, so a layering mistake fails `npm test` instead of waiting for a reviewer.
// `npm run lint` caches results in node_modules/.cache/eslint, by file content: a type changed in one file does not
// lint again the files that use it, so a type-aware finding there waits for `rm -rf node_modules/.cache/eslint` or
// for CI, which lints a clean clone without the cache.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Packages that do I/O or belong to one room; the domain (src/hive) imports none of them. */
const IO_PACKAGES = [
  '@kubernetes/client-node',
  'bullmq',
  'ioredis',
  'fastify',
  '@fastify/*',
  '@bull-board/*',
  'node-cron',
  'pino',
  'prom-client',
  'node:fs',
  'node:fs/*',
  'node:http',
  'node:https',
  'node:net',
  'node:child_process',
];

const only = (room) => `only ${room} may import this package (docs/adr/0005-lint-enforced-layering.md)`;
const KUBE_CLIENT = { group: ['@kubernetes/client-node', '@kubernetes/client-node/*'], message: only('src/kube') };
const BULLMQ = { group: ['bullmq', 'bullmq/*'], message: only('src/jobs') };
// `process.env` as a property is caught by no-restricted-properties below; this catches `import { env }`.
const ENV_IMPORT = ['process', 'node:process'].map((name) => ({
  name,
  importNames: ['env'],
  message: 'only entry files (src/main) read the environment; pass values in through Config',
}));

/**
 * One config object per directory depth, because no-restricted-imports sees the import string, not the resolved
 * path: from src/<room>/a/b.ts, `../../x.js` leaves the room, from src/<room>/b.ts `../x.js` does. `allowOut`
 * names what the room may still reach outside itself (a lookahead on the rest of the path).
 */
function room(dir, { patterns, allowOut, why }) {
  return [1, 2, 3, 4].map((depth) => ({
    files: [`src/${dir}/${'*/'.repeat(depth - 1)}*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ENV_IMPORT,
          patterns: [...patterns, { regex: `^(\\.\\./){${depth}}${allowOut ? `(?!${allowOut})` : ''}`, message: why }],
        },
      ],
    },
  }));
}

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'packages/cli/dist/',
      'coverage/',
      'node_modules/',
      'test/fixtures/',
      'bench/results/',
      '.beekeeper/',
      'deploy/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // scripts/ and openapi/ sit outside tsconfig.json's include; the default project type-checks them.
        projectService: { allowDefaultProject: ['*.js', 'bin/*.js', 'scripts/*.js', 'bench/*.js', 'openapi/*.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Kubernetes objects, watch events and job payloads are untyped JSON handled as `any` on purpose and
      // narrowed where they are read; these rules flagged ~3,800 such reads and no bug.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Functions that implement a Promise-returning port are `async` even without an await, so that a throw
      // becomes a rejection the caller handles like any other.
      '@typescript-eslint/require-await': 'off',
      // Factories return plain objects of functions that never use `this` (house style), so destructuring
      // `{ get, list } = store` is safe; the rule only knows method syntax, not whether `this` is used.
      '@typescript-eslint/unbound-method': 'off',
      // `String(x)` on values read from JSON is the intended coercion; the rule cannot see that they are scalars.
      '@typescript-eslint/no-base-to-string': 'off',
      // `_`-prefixed names and the siblings of a rest element are deliberately unused (omitting fields).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Rethrowing a caught value or an AbortSignal's reason is fine whatever its type.
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // Node's URLSearchParams (from @types/node, not lib) prints as a query string.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        {
          allow: [
            { name: ['Error', 'URL', 'URLSearchParams'], from: 'lib' },
            { name: ['URLSearchParams'], from: 'package', package: 'url' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: { globals: { URL: 'readonly', process: 'readonly', console: 'readonly' } },
  },

  // The layering (ARCHITECTURE.md, "Who may import whom"). Later objects replace earlier options for their files.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/main/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'only entry files (src/main) read the environment; pass values in through Config',
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ENV_IMPORT, patterns: [KUBE_CLIENT, BULLMQ] }] },
  },
  { files: ['src/main/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [KUBE_CLIENT, BULLMQ] }] } },
  {
    files: ['src/kube/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ENV_IMPORT, patterns: [BULLMQ] }] },
  },
  {
    files: ['src/jobs/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ENV_IMPORT, patterns: [KUBE_CLIENT] }] },
  },
  ...room('hive', {
    patterns: [{ group: IO_PACKAGES, message: 'src/hive is the pure domain: no I/O library (docs/adr/0005)' }],
    why: 'src/hive imports nothing of ours outside src/hive (docs/adr/0005)',
  }),
  ...room('sim', {
    patterns: [KUBE_CLIENT, BULLMQ],
    // The shared Clock is time, not service logic. Not even src/hive: the double must not agree with our own Hive
    // rules by sharing them (README, "Development").
    allowOut: 'clock\\.js$',
    why: 'the simulator imports nothing of the service, only its own files and src/clock.ts (docs/adr/0001)',
  }),
  ...room('cli', {
    patterns: [
      {
        regex: '^(?!node:|\\.)',
        message: 'the CLI ships as @beekeeper/cli without dependencies: Node built-ins only (packages/cli/README.md)',
      },
    ],
    // The standalone bundle (npm run build:cli) takes whatever src/cli reaches: service code would ship with it.
    allowOut: 'config/names\\.js$',
    why: 'src/cli imports only src/cli and src/config/names.ts, so its bundle carries no service code (packages/cli)',
  }),
  {
    // Prettier wraps code but cannot break a string or a comment: this keeps those readable too.
    files: ['src/**/*.ts'],
    rules: { 'max-len': ['error', { code: 160, ignoreUrls: true }] },
  },
);
