// Lighthouse-style figures for the first visit (`npm run perf`; not part of `npm test` or
// `npm run e2e`). Starts the real server (HIBIKI_BIN, serving dist/, as e2e/harness.mjs does),
// then loads each page in Debian's Chromium (playwright-core) several times, each run in a fresh
// browser context (empty HTTP cache, no cookies, no service worker: a cold first visit), and
// prints per page and condition: TTFB, FCP, LCP, CLS, total blocking time (approx.), JS bytes
// (transferred, decoded, and gzip-equivalent), total bytes, with the median of the runs.
//
// Conditions:
//   desktop   1280×800, no throttling (loopback network, this machine's CPU)
//   mobile    390×844 phone (DPR 2, touch), CDP Network.emulateNetworkConditions with DevTools'
//             Lighthouse mobile values (562.5 ms RTT, 1474.56 kbit/s down, 675 kbit/s up) and
//             Emulation.setCPUThrottlingRate 4
//
// Usage: node scripts/perf.mjs [--runs N] [--conditions desktop,mobile] [--pages /,/en/login]
//        [--json file] [--markdown] [--gzip]
// --gzip puts a small gzip proxy (level 6) in front of the server: the hibiki server sends dist/
// files uncompressed, so this shows what a compressing server or reverse proxy would give.
// Env: HIBIKI_BIN (default ../target/debug/hibiki), HIBIKI_CHROMIUM (default /usr/bin/chromium).
//
// How each figure is taken (in the page, PerformanceObserver with buffered entries):
//   TTFB  navigation entry responseStart
//   document headers (CDP)  requestWillBeSent -> responseReceived of the HTML, from the browser's
//         network stack (includes the emulated latency, which TTFB above may not)
//   FCP   'paint' entry first-contentful-paint
//   LCP   the last 'largest-contentful-paint' entry once the page has settled
//   CLS   'layout-shift' entries without hadRecentInput, largest session window (gaps < 1 s,
//         windows ≤ 5 s), as Core Web Vitals define it
//   TBT   sum of (duration − 50 ms) over 'longtask' entries after FCP until settled (Lighthouse
//         stops at TTI; this stops when the network has been idle for 1 s, so it can only be higher)
//   bytes CDP Network: transferred = encodedDataLength at loadingFinished (headers + body as
//         sent), decoded = sum of dataReceived dataLength; JS = responses of type Script;
//         "gz" = each JS body gzipped here at level 6 (what a compressing server would send)
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { DESKTOP, PHONE, WEB_DIR, distIsStale, freePort, launchBrowser, startHibiki } from '../e2e/harness.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] && !args[i + 1].startsWith('--') ? args[i + 1] : fallback;
};
const RUNS = Math.max(1, Number(opt('runs', 5)) || 5);
const PAGES = opt('pages', '/,/en/login').split(',');
const CONDITIONS = opt('conditions', 'desktop,mobile').split(',');
const JSON_OUT = opt('json', null);
const MARKDOWN = args.includes('--markdown');
// --gzip: load the pages through a small proxy that gzips compressible answers (level 6), to see
// what a compressing server would give (the hibiki server sends dist/ files as they are)
const GZIP = args.includes('--gzip');

const MOBILE_NETWORK = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1474.56 * 1024) / 8,
  uploadThroughput: (675 * 1024) / 8,
};
const CONDITION = {
  desktop: { label: 'desktop 1280×800, no throttling', viewport: DESKTOP, network: null, cpu: 1, settleTimeoutMs: 20_000 },
  mobile: {
    label: 'phone 390×844, Lighthouse mobile throttling (562.5 ms RTT, 1.47 Mbit/s down, 675 kbit/s up, CPU ×4)',
    viewport: PHONE,
    network: MOBILE_NETWORK,
    cpu: 4,
    settleTimeoutMs: 60_000,
  },
};

// ---------------------------------------------------------------------------------------------
// dist/ must be current (same rule as e2e/run.mjs)

if (distIsStale()) {
  console.error('perf: dist/ is missing or stale, running npm run build');
  const b = spawnSync('npm', ['run', 'build'], { cwd: WEB_DIR, stdio: ['ignore', 'ignore', 'inherit'] });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

// ---------------------------------------------------------------------------------------------
// In the page, before any of its scripts: observers that keep what they see on window.__perf.

function observe() {
  const perf = { lcp: null, shifts: [], longTasks: [] };
  window.__perf = perf;
  const watch = (type, fn) => {
    try {
      new PerformanceObserver((list) => list.getEntries().forEach(fn)).observe({ type, buffered: true });
    } catch {
      /* entry type unsupported */
    }
  };
  watch('largest-contentful-paint', (e) => {
    perf.lcp = { time: e.renderTime || e.loadTime || e.startTime, size: e.size, element: e.element ? e.element.tagName.toLowerCase() + (e.element.className ? '.' + String(e.element.className).split(' ').join('.') : '') : null };
  });
  const describe = (n) => (n && n.nodeType === 1 ? n.tagName.toLowerCase() + (n.className && typeof n.className === 'string' ? '.' + n.className.trim().split(/\s+/).join('.') : '') : n ? n.nodeName : '?');
  watch('layout-shift', (e) => {
    if (!e.hadRecentInput) perf.shifts.push({ time: e.startTime, value: e.value, sources: (e.sources || []).map((x) => describe(x.node)) });
  });
  watch('longtask', (e) => perf.longTasks.push({ start: e.startTime, duration: e.duration }));
}

/** Largest session window of layout shifts: gaps under 1 s, at most 5 s long. */
function cls(shifts) {
  let worst = 0;
  let current = 0;
  let first = -Infinity;
  let last = -Infinity;
  for (const s of [...shifts].sort((a, b) => a.time - b.time)) {
    if (s.time - last > 1000 || s.time - first > 5000) {
      first = s.time;
      current = 0;
    }
    last = s.time;
    current += s.value;
    worst = Math.max(worst, current);
  }
  return worst;
}

// ---------------------------------------------------------------------------------------------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function measure(browser, baseURL, path, condition) {
  const lang = path.startsWith('/en') ? 'en' : 'ja';
  const context = await browser.newContext({
    baseURL,
    viewport: condition.viewport,
    locale: lang === 'ja' ? 'ja-JP' : 'en-US',
    timezoneId: 'Asia/Tokyo',
    serviceWorkers: 'block',
    ...(condition.viewport.width < 600 ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  await context.addInitScript(observe);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (condition.network) await cdp.send('Network.emulateNetworkConditions', condition.network);
  if (condition.cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: condition.cpu });

  const requests = new Map();
  let inflight = 0;
  let lastActivity = Date.now();
  cdp.on('Network.requestWillBeSent', (e) => {
    if (!requests.has(e.requestId)) inflight++;
    requests.set(e.requestId, { url: e.request.url, type: e.type ?? 'Other', transferred: 0, decoded: 0, done: false, status: 0, sentAt: e.timestamp });
    lastActivity = Date.now();
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (r) {
      r.headersAfter = (e.timestamp - r.sentAt) * 1000;
      r.type = e.type ?? r.type;
      r.status = e.response.status;
      r.encoding = e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'] ?? null;
    }
  });
  cdp.on('Network.dataReceived', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.decoded += e.dataLength;
    lastActivity = Date.now();
  });
  const finish = (e, failed) => {
    const r = requests.get(e.requestId);
    if (r && !r.done) {
      r.done = true;
      r.failed = failed;
      if (!failed) r.transferred = e.encodedDataLength;
      inflight--;
    }
    lastActivity = Date.now();
  };
  cdp.on('Network.loadingFinished', (e) => finish(e, false));
  cdp.on('Network.loadingFailed', (e) => finish(e, true));

  const started = Date.now();
  await page.goto(path, { waitUntil: 'load', timeout: condition.settleTimeoutMs });
  // settled: nothing in flight for 1 s (lazy chunks, locale namespaces, session check)
  while (Date.now() - started < condition.settleTimeoutMs) {
    if (inflight <= 0 && Date.now() - lastActivity >= 1000) break;
    await sleep(100);
  }
  const settledMs = Date.now() - started;
  const inPage = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return { ttfb: nav ? nav.responseStart : null, load: nav ? nav.loadEventEnd : null, fcp: fcp ? fcp.startTime : null, perf: window.__perf, finalPath: location.pathname };
  });

  // JS bodies, gzipped here: what a compressing server would have sent
  let jsGzip = 0;
  for (const [id, r] of requests) {
    if (r.type !== 'Script' || r.failed) continue;
    try {
      const body = await cdp.send('Network.getResponseBody', { requestId: id });
      jsGzip += gzipSync(body.base64Encoded ? Buffer.from(body.body, 'base64') : Buffer.from(body.body, 'utf8')).length;
    } catch {
      /* body evicted */
    }
  }
  await context.close();

  const all = [...requests.values()].filter((r) => !r.failed);
  const doc = all.find((r) => r.type === 'Document');
  const shifts = inPage.perf?.shifts ?? [];
  const biggest = [...shifts].sort((a, b) => b.value - a.value)[0];
  const js = all.filter((r) => r.type === 'Script');
  const sum = (rows, k) => rows.reduce((s, r) => s + r[k], 0);
  const fcp = inPage.fcp;
  const tbt = (inPage.perf?.longTasks ?? []).filter((t) => fcp === null || t.start + t.duration > fcp).reduce((s, t) => s + Math.max(0, t.duration - 50), 0);
  return {
    finalPath: inPage.finalPath,
    ttfb: inPage.ttfb,
    docHeaders: doc?.headersAfter ?? null,
    biggestShift: biggest ? `${biggest.value.toFixed(3)} at ${Math.round(biggest.time)} ms: ${biggest.sources.join(', ')}` : null,
    fcp,
    lcp: inPage.perf?.lcp?.time ?? null,
    lcpElement: inPage.perf?.lcp?.element ?? null,
    cls: cls(shifts),
    tbt,
    load: inPage.load,
    settledMs,
    requests: all.length,
    jsFiles: js.length,
    jsTransferred: sum(js, 'transferred'),
    jsDecoded: sum(js, 'decoded'),
    jsGzip,
    jsEncoded: [...new Set(js.map((r) => r.encoding ?? 'identity'))].join(','),
    totalTransferred: sum(all, 'transferred'),
    totalDecoded: sum(all, 'decoded'),
  };
}

const median = (xs) => {
  const v = xs.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};
const ms = (x) => (x === null ? '—' : `${Math.round(x)} ms`);
const kb = (x) => (x === null ? '—' : `${(x / 1000).toFixed(1)} kB`);
const fixed = (x) => (x === null ? '—' : x.toFixed(3));

const METRICS = [
  ['ttfb', 'TTFB', ms],
  ['docHeaders', 'document headers (CDP)', ms],
  ['fcp', 'FCP', ms],
  ['lcp', 'LCP', ms],
  ['cls', 'CLS', fixed],
  ['tbt', 'TBT (approx.)', ms],
  ['jsTransferred', 'JS transferred', kb],
  ['jsDecoded', 'JS decoded', kb],
  ['jsGzip', 'JS if gzipped', kb],
  ['totalTransferred', 'total transferred', kb],
  ['totalDecoded', 'total decoded', kb],
  ['requests', 'requests', (x) => (x === null ? '—' : String(Math.round(x)))],
];

/** An HTTP proxy to `target` that gzips text, JS, CSS, JSON and SVG answers when the client accepts gzip. */
async function gzipProxy(target) {
  const port = await freePort();
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const headers = { ...req.headers };
    delete headers['accept-encoding'];
    delete headers.host;
    const answer = await fetch(target + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined, redirect: 'manual' });
    const body = Buffer.from(await answer.arrayBuffer());
    const out = {};
    answer.headers.forEach((v, k) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
    });
    const type = answer.headers.get('content-type') ?? '';
    if (/gzip/.test(req.headers['accept-encoding'] ?? '') && /text|javascript|json|css|svg|manifest/.test(type) && body.length > 0) {
      const gz = gzipSync(body, { level: 6 });
      res.writeHead(answer.status, { ...out, 'content-encoding': 'gzip', 'content-length': gz.length, vary: 'Accept-Encoding' });
      res.end(gz);
    } else {
      res.writeHead(answer.status, { ...out, 'content-length': body.length });
      res.end(body);
    }
  });
  await new Promise((ok) => server.listen(port, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => server.close(ok)) };
}

async function main() {
  const hibiki = await startHibiki({});
  const proxy = GZIP ? await gzipProxy(hibiki.url) : null;
  const server = { url: proxy ? proxy.url : hibiki.url };
  const browser = await launchBrowser();
  const machine = {
    cpu: `${os.cpus()[0]?.model ?? 'unknown'} × ${os.cpus().length}`,
    memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    chromium: browser.version(),
    load: os.loadavg().map((x) => x.toFixed(2)).join(' '),
  };
  const results = [];
  try {
    // one throwaway load: the server's first answers and Chromium's first context are slower
    await measure(browser, server.url, '/', CONDITION.desktop);
    for (const c of CONDITIONS) {
      const condition = CONDITION[c];
      if (!condition) throw new Error(`unknown condition ${c}`);
      for (const path of PAGES) {
        const runs = [];
        for (let i = 0; i < RUNS; i++) {
          const r = await measure(browser, server.url, path, condition);
          runs.push(r);
          process.stderr.write(`${c} ${path} run ${i + 1}/${RUNS}: FCP ${ms(r.fcp)}, LCP ${ms(r.lcp)}, CLS ${fixed(r.cls)}, JS ${kb(r.jsTransferred)}\n`);
        }
        const med = Object.fromEntries(METRICS.map(([k]) => [k, median(runs.map((r) => r[k]))]));
        results.push({ condition: c, label: condition.label + (GZIP ? ', through the gzip proxy' : ''), path, finalPath: runs[0].finalPath, lcpElement: runs[0].lcpElement, jsEncoding: runs[0].jsEncoded, shifts: [...new Set(runs.map((r) => r.biggestShift).filter(Boolean))], runs, median: med });
      }
    }
  } finally {
    await browser.close().catch(() => {});
    await proxy?.close().catch(() => {});
    await hibiki.stop().catch(() => {});
  }

  if (GZIP) console.log('\nThrough a gzip proxy (level 6) in front of the server.');
  console.log(`\nMachine: ${machine.cpu}, ${machine.memory}, ${machine.os}; Node ${machine.node}; Chromium ${machine.chromium} (headless); load average at the start ${machine.load}`);
  console.log(`Runs per page and condition: ${RUNS}, each a fresh context (cold cache, no service worker). Figures are medians; [min–max] in brackets.\n`);
  for (const r of results) {
    console.log(`${r.path} (ended at ${r.finalPath}; LCP element ${r.lcpElement ?? '—'}; JS content-encoding ${r.jsEncoding}) — ${r.label}`);
    for (const shift of r.shifts.slice(0, 3)) console.log(`  largest layout shift: ${shift}`);
    for (const [k, name, fmt] of METRICS) {
      const xs = r.runs.map((x) => x[k]).filter((x) => typeof x === 'number');
      const range = xs.length ? ` [${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}]` : '';
      console.log(`  ${name.padEnd(18)} ${fmt(r.median[k]).padStart(10)}${range}`);
    }
    console.log('');
  }
  if (MARKDOWN) {
    const head = ['page', 'condition', ...METRICS.map(([, name]) => name)];
    console.log(`| ${head.join(' | ')} |`);
    console.log(`|${head.map(() => '---').join('|')}|`);
    for (const r of results) console.log(`| \`${r.path}\` | ${r.condition} | ${METRICS.map(([k, , fmt]) => fmt(r.median[k])).join(' | ')} |`);
  }
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ machine, runs: RUNS, results }, null, 2));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
