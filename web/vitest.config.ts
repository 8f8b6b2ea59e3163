import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    // A test waits for states; on a machine busy with a build, reaching one can take seconds.
    testTimeout: 30_000,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    pool: 'threads',
    maxWorkers: 2,
    // Files share a worker's jsdom and node_modules: a fresh environment per file cost more
    // than the tests (258 s against 111-129 s for the suite on two cores). The app's own
    // modules, storage, IndexedDB and address are made fresh for each file (src/test/setup.ts).
    isolate: false,
  },
});
