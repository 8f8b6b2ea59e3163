// `npm run e2e`: builds dist/ when it is missing or older than the sources, then runs every
// e2e/*.test.mjs file with Node's test runner. Each file starts its own SMTP sink, server and
// browser; two files run at once (HIBIKI_E2E_JOBS, default 2: three at once kept both cores busy
// and took longer, 1,049 s against 832 s, as the browsers competed). The longest files start
// first, so no long one is left to run alone at the end.
// Extra arguments go to `node --test` (e.g. `npm run e2e -- --test-name-pattern=offline`), and
// file names pick files: `npm run e2e -- e2e/push.test.mjs`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { WEB_DIR, distIsStale, hibikiBin } from './harness.mjs';

if (process.env.HIBIKI_E2E_SKIP_BUILD !== '1' && distIsStale()) {
  console.log('e2e: dist/ is missing or stale, running npm run build');
  const b = spawnSync('npm', ['run', 'build'], { cwd: WEB_DIR, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
if (!existsSync(hibikiBin())) {
  console.error(`e2e: no hibiki binary at ${hibikiBin()} (build the server or set HIBIKI_BIN)`);
  process.exit(1);
}

const args = process.argv.slice(2);
const files = args.filter((a) => a.endsWith('.test.mjs'));
const flags = args.filter((a) => !a.endsWith('.test.mjs'));
// The files that took longest in a full run on two cores (a11y 300 s, device 140 s, firefox
// 110 s, …), started first.
const LONGEST_FIRST = ['a11y', 'device', 'firefox', 'screens', 'households', 'mozpush', 'trustwords', 'overlays', 'schedules'];
const rank = (f) => {
  const i = LONGEST_FIRST.indexOf(f.replace('.test.mjs', ''));
  return i === -1 ? LONGEST_FIRST.length : i;
};
const all = readdirSync(join(WEB_DIR, 'e2e'))
  .filter((f) => f.endsWith('.test.mjs'))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
  .map((f) => join('e2e', f));
const jobs = Math.max(1, Number(process.env.HIBIKI_E2E_JOBS ?? 2) || 2);
const r = spawnSync(
  process.execPath,
  ['--test', `--test-concurrency=${jobs}`, '--test-reporter=spec', ...flags, ...(files.length ? files : all)],
  { cwd: WEB_DIR, stdio: 'inherit' },
);
process.exit(r.status ?? 1);
