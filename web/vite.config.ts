import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

// Pages few people open, whose chunks are not preloaded (see build.modulePreload below).
const RARELY_VISITED = /\/(Admin\w*|TestEmail|Status|Privacy|Terms|CommercialTransactionAct|DeleteAccount|Faq|NotFound|Trigger|Share)Page-/;
// Chunks the entry imports statically: loaded before any lazy chunk is asked for.
const ALWAYS_LOADED = /\/(framework|rolldown-runtime)-/;

// The API server (Rust, see ../README.md) listens on 127.0.0.1:8080 by default.
const API_TARGET = process.env.HIBIKI_API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      injectRegister: false, // registered by src/lib/registerSw.ts
      manifestFilename: 'manifest.webmanifest',
      includeAssets: ['icons/icon.svg'],
      manifest: {
        name: 'Hibiki 響き',
        short_name: 'Hibiki',
        description: 'Reminders you hear / 音で届くリマインダー',
        lang: 'ja',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#4f46e5',
        shortcuts: [
          { name: 'リマインダーを作成', short_name: '作成', url: '/reminders?new=1' },
          { name: 'Create reminder', short_name: 'Create', url: '/en/reminders?new=1' },
        ],
        // Share to Hibiki: what another app shares opens quick add filled in (/share, after sign-in when needed).
        share_target: { action: '/share', method: 'GET', params: { title: 'title', text: 'text', url: 'url' } },
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/icon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        // The error reporter loads only where the operator turned reporting on: never precached.
        globIgnores: ['**/reporter-*.js'],
      },
      devOptions: { enabled: false },
    }),
  ],
  server: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    target: 'es2022',
    // The list of what each lazily loaded chunk needs is part of the entry chunk (counted in `/`'s
    // 80 KB): it leaves out the chunks the entry itself loads, and the pages few people open
    // (their chunks load when opened; CSS is always kept).
    modulePreload: {
      resolveDependencies: (filename, deps) => (RARELY_VISITED.test(filename) ? [] : deps.filter((d) => !ALWAYS_LOADED.test(d))),
    },
    rolldownOptions: {
      output: {
        // One chunk for the framework code every page needs: one gzip stream compresses better
        // than the several chunks the default splitting makes (keeps `/` under its 80 KB budget); the app's router is
        // framework too (every page's chunk imports it).
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|i18next|react-i18next|use-sync-external-store)[\\/]|[\\/]src[\\/]lib[\\/]router\.tsx$/,
            },
          ],
        },
      },
    },
  },
});
