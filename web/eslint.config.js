import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * Layers (as bulletproof-react): shared code (components, lib, i18n, locales, sw) <- features
 * <- app. A feature imports shared code and itself only; what two features need is shared
 * code, and a page that shows parts of several features is composed in src/app. src/main.tsx
 * and src/test (test helpers) may import anything.
 */
const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

const layerZones = [
  ...FEATURES.map((name) => ({
    target: `./src/features/${name}`,
    from: './src/features',
    except: [`./${name}`],
    message: 'Features do not import each other: move what both need to src/lib or src/components, or compose them in src/app.',
  })),
  {
    target: './src/features',
    from: './src/app',
    message: 'Features do not import the app shell.',
  },
  {
    target: ['./src/components', './src/lib', './src/i18n', './src/locales', './src/sw'],
    from: ['./src/features', './src/app'],
    message: 'Shared code does not import features or the app.',
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
        { patterns: [{ regex: '^(react|react-dom|react-router|react-i18next|i18next|swr)(/|$)', message: 'The service worker does not load the UI framework.' }] },
      ],
    },
  },
);
