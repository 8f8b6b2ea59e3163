// Writes the time zone picker's data from the IANA database and CLDR:
// - src/lib/zoneLinks.json: the ICU ids browsers report (Intl.supportedValuesOf('timeZone'),
//   resolvedOptions().timeZone) that are not canonical IANA names, each with its canonical name
//   (Asia/Calcutta -> Asia/Kolkata, Pacific/Truk -> Pacific/Chuuk);
// - src/components/zoneNames.ja.json: every canonical zone with its Japanese city name (CLDR ja
//   exemplar cities); its keys are the picker's list of zones;
// - src/components/zoneNames.en.json: the English city names that differ from the id's last
//   segment (America/Sao_Paulo -> São Paulo).
// "Canonical" means a name of zone.tab, IANA's list of zones to choose from, or UTC.
// Needs the system tzdata (/usr/share/zoneinfo) and the cldr-dates-full package.
// Run: node scripts/zone-data.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const ZONEINFO = process.env.ZONEINFO ?? '/usr/share/zoneinfo';
const require = createRequire(import.meta.url);
const cldr = (lang) => require(`cldr-dates-full/main/${lang}/timeZoneNames.json`).main[lang].dates.timeZoneNames;

// IANA: zone.tab names, and the links (link -> target) of the compiled source.
const canonical = new Set(['UTC']);
for (const line of readFileSync(`${ZONEINFO}/zone.tab`, 'utf8').split('\n')) {
  if (line && !line.startsWith('#')) canonical.add(line.split('\t')[2]);
}
const links = new Map();
for (const line of readFileSync(`${ZONEINFO}/tzdata.zi`, 'utf8').split('\n')) {
  const [kind, target, name] = line.split(' ');
  if (kind === 'L') links.set(name, target);
}
const resolve = (id) => links.get(id) ?? id;

// CLDR zones, keyed by their ICU ids, with exemplar cities.
function cities(lang) {
  const out = new Map();
  const walk = (node, path) => {
    for (const [k, v] of Object.entries(node)) {
      if (v && typeof v === 'object' && v._type === 'zone') out.set([...path, k].join('/'), v.exemplarCity);
      else if (v && typeof v === 'object') walk(v, [...path, k]);
    }
  };
  walk(cldr(lang).zone, []);
  return out;
}
const ja = cities('ja');
const en = cities('en');
const plain = (s) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[_\s]+/g, ' ');
const lastSegment = (id) => id.slice(id.lastIndexOf('/') + 1).replaceAll('_', ' ');

// The ICU ids: CLDR's and this Node's Intl (the same ICU family browsers use).
const icuIds = new Set([...ja.keys(), ...Intl.supportedValuesOf('timeZone')]);
icuIds.delete('Etc/Unknown');

/**
 * The canonical name for an ICU id: the zone.tab name of its area named like its city (Truk is
 * Chuuk, Calcutta is Kolkata; the links of the database point some of these at merged zones),
 * else the zone.tab name its link points to (Saigon -> Ho_Chi_Minh).
 */
function canonicalOf(id) {
  if (canonical.has(id)) return id;
  if (id === 'Etc/UTC' || id === 'Etc/GMT' || id === 'GMT') return 'UTC';
  const city = en.get(id);
  const area = id.split('/')[0];
  const named = [...canonical].filter((c) => city && c.split('/')[0] === area && plain(lastSegment(c)) === plain(city));
  if (named.length === 1) return named[0];
  const target = resolve(id);
  return canonical.has(target) ? target : null;
}

const zoneLinks = {};
const jaNames = {};
const enNames = {};
const skipped = [];
for (const id of [...icuIds].sort()) {
  const to = canonicalOf(id);
  if (!to) {
    skipped.push(id);
    continue;
  }
  if (to !== id) zoneLinks[id] = to;
  const jaCity = ja.get(id);
  // A zone's own entry wins over a link's (both can carry a city).
  if (jaCity && (!(to in jaNames) || id === to)) jaNames[to] = jaCity;
  const enCity = en.get(id);
  if (enCity && enCity !== lastSegment(to) && (!(to in enNames) || id === to)) enNames[to] = enCity;
}
// UTC has no city: its long name.
jaNames.UTC = cldr('ja').zone.Etc.UTC.long.standard;
enNames.UTC = cldr('en').zone.Etc.UTC.long.standard;
// A canonical zone CLDR does not name (newer than the CLDR release): its English city.
for (const z of canonical) if (!(z in jaNames)) jaNames[z] = lastSegment(z);

const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
const write = (path, data) => writeFileSync(new URL(`../${path}`, import.meta.url), `${JSON.stringify(sorted(data), null, 0).replaceAll('","', '",\n"')}\n`);
write('src/lib/zoneLinks.json', zoneLinks);
write('src/components/zoneNames.ja.json', jaNames);
write('src/components/zoneNames.en.json', enNames);
console.log(`${Object.keys(jaNames).length} zones, ${Object.keys(zoneLinks).length} links, ${Object.keys(enNames).length} English names`);
if (skipped.length) console.log(`not zones people choose (no zone.tab name): ${skipped.join(' ')}`);
