import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * Layers (as bulletproof-react), lowest first; each imports only the layers listed before it:
 *   lib, i18n, locales  infrastructure: the API client, SWR keys, auth, i18n plumbing, storage,
 *                       push and offline plumbing, pure utilities
 *   components          UI that knows no feature
 *   shared              feature-level logic several features use (settings, dates, health, the
 *                       time zone picker …): imports lib and components
 *   features            one folder each: imports those layers and itself, no other feature;
 *                       what two features need goes to src/shared
 *   app                 the shell: composes pages that show parts of several features
 * The service worker (src/sw) imports lib and locales only, and no UI framework. src/main.tsx and
 * src/test (test helpers) may import anything.
 */
const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

const layerZones = [
  ...FEATURES.map((name) => ({
    target: `./src/features/${name}`,
    from: './src/features',
    except: [`./${name}`],
    message: 'Features do not import each other: move what both need to src/shared, or compose them in src/app.',
  })),
  {
    target: './src/features',
    from: './src/app',
    message: 'Features do not import the app shell.',
  },
  {
    target: './src/shared',
    from: ['./src/features', './src/app'],
    message: 'Shared code (src/shared) imports lib and components, not features or the app.',
  },
  {
    target: ['./src/lib', './src/i18n', './src/locales'],
    from: ['./src/shared', './src/components', './src/features', './src/app'],
    message: 'src/lib, i18n and locales are infrastructure: they import neither components, shared code, features nor the app.',
  },
  {
    target: './src/components',
    from: ['./src/shared', './src/features', './src/app'],
    message: 'Components know no feature: they do not import shared code, features or the app.',
  },
  {
    target: './src/sw',
    from: ['./src/components', './src/shared', './src/features', './src/app'],
    message: 'The service worker imports lib and locales only (no UI).',
  },
];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'dev-dist', 'e2e/screenshots'] },
  {
    // e2e harness and build scripts: Node, plus browser globals inside page.evaluate callbacks
    files: ['e2e/**/*.mjs', 'scripts/**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node, ...globals.browser, ...globals.serviceworker } },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }] },
  },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: layerZones }],
      // An import the resolver cannot follow would pass the zones unchecked: none may exist.
      'import-x/no-unresolved': 'error',
    },
  },
  {
    // The service worker bundle stays free of the UI framework and its i18n.
    files: ['src/sw/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(react|react-dom|react-i18next|i18next|swr)(/|$)', message: 'The service worker does not load the UI framework.' }] },
      ],
    },
  },
);
