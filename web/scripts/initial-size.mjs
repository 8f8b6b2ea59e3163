// Reports the JavaScript a first visit to `/` downloads before it can render: the entry script
// of dist/index.html plus everything it imports statically (modulepreload links and `import … from`
// inside the chunks), gzipped one file at a time as a server would send them. Lazy chunks
// (dynamic import()) are not counted. zlib default level (6), like most servers. Exits 1 over the
// budget (default 80 KB = 80000 bytes).
// Usage: node scripts/initial-size.mjs [distDir] [budgetKB]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = process.argv[2] ?? 'dist';
const budget = Number(process.argv[3] ?? 80) * 1000;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const queue = [
  ...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
  ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
].map((m) => m[1]);
const seen = new Set();
let total = 0;
const rows = [];
while (queue.length) {
  const url = queue.shift();
  if (seen.has(url)) continue;
  seen.add(url);
  const code = readFileSync(join(dist, url), 'utf8');
  const gz = gzipSync(code).length;
  total += gz;
  rows.push([url, code.length, gz]);
  const dir = url.slice(0, url.lastIndexOf('/') + 1);
  // static imports only: `import … from "./x.js"` / `import "./x.js"` (not `import("./x.js")`)
  for (const m of code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w$*{}\s,]+from\s*)?["']([^"']+\.js)["']/g)) {
    queue.push(new URL(m[1], `http://x${dir}`).pathname);
  }
}
for (const [url, raw, gz] of rows) console.log(`${(gz / 1000).toFixed(2).padStart(7)} kB gz  ${(raw / 1000).toFixed(1).padStart(7)} kB  ${url}`);
console.log(`initial JS for /: ${(total / 1000).toFixed(2)} kB gzipped (budget ${budget / 1000} kB)`);
if (total > budget) {
  console.error('over budget');
  process.exit(1);
}
