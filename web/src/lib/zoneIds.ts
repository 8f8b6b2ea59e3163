/**
 * Canonical IANA zone names. Browsers report ICU's ids, some of them old IANA names
 * (Asia/Calcutta, Europe/Kiev, Pacific/Truk); the app stores and offers only the current ones.
 * zoneLinks.json is written by scripts/zone-data.mjs.
 */
import zoneLinks from './zoneLinks.json';
import { browserTimeZone } from './zonedTime';

const links: Readonly<Record<string, string>> = zoneLinks;

/** The canonical name of a zone id (Asia/Calcutta -> Asia/Kolkata); other ids as they are. */
export function canonicalZone(id: string): string {
  return links[id] ?? id;
}

/** The legacy ids that name `zone` (Asia/Kolkata -> [Asia/Calcutta]), for search. */
export function legacyNames(zone: string): string[] {
  return Object.keys(links).filter((id) => links[id] === zone);
}

/** This device's zone, canonical. */
export function deviceZone(): string {
  return canonicalZone(browserTimeZone());
}

/** Two names of one zone (Asia/Calcutta and Asia/Kolkata) are the same zone. */
export function sameZone(a: string, b: string): boolean {
  return canonicalZone(a) === canonicalZone(b);
}
