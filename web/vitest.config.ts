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
    // Files share a worker's jsdom and modules: a fresh environment per file cost more than
    // the tests (258 s against 114 s for the suite on two cores). So a test leaves no state
    // behind (setup.ts cleans the DOM, stubs and storage) and fakes modules with spies, not
    // vi.mock (which cannot replace a module another file loaded first).
    isolate: false,
  },
});
