/**
 * The time zone picker's list and search, loaded when the picker opens. Every canonical zone
 * (zoneNames.ja.json, written by scripts/zone-data.mjs) with its city name in both languages
 * and its UTC offset now; a search matches either name, the id (also its old ICU spelling:
 * "calcutta" finds Asia/Kolkata) and the offset, ignoring case, width, accents and kana kind.
 */
import type { Lang } from '../lib/lang';
import { canonicalZone, legacyNames } from '../lib/zoneIds';
import { isValidTimeZone, offsetMinutes } from '../lib/zonedTime';
import { COMMON_ZONES, UTC_NAME_EN, cityOfId, utcOffsetText } from './commonZones';
import enNames from './zoneNames.en.json';
import jaNames from './zoneNames.ja.json';

const JA: Readonly<Record<string, string>> = jaNames;
const EN: Readonly<Record<string, string>> = enNames;

export interface ZoneOption {
  id: string;
  /** The city in the page's language: 東京, New York. */
  name: string;
  /** UTC+09:00 */
  offset: string;
  common: boolean;
  /** Folded texts a search looks in: the names, the ids, the offsets. */
  haystack: string[];
  /** Place in the unfiltered list. */
  order: number;
}

/** Case, width, accents, hiragana/katakana, the minus sign and separators do not matter. */
export function fold(text: string): string {
  return text
    .normalize('NFKC')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\u3041-\u3096]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0x60))
    .replace(/[\u2212\u2010-\u2015]/g, '-')
    .replace(/[\s_/()・.,'’`]+/g, '');
}

export function zoneName(id: string, lang: Lang): string {
  const zone = canonicalZone(id);
  if (lang === 'ja') return JA[zone] ?? cityOfId(zone);
  return EN[zone] ?? (zone === 'UTC' ? UTC_NAME_EN : cityOfId(zone));
}

/** UTC+9, UTC+09:00, GMT+9, for the offset search. */
function offsetTexts(minutes: number): string[] {
  const sign = minutes < 0 ? '-' : '+';
  const h = Math.floor(Math.abs(minutes) / 60);
  const m = Math.abs(minutes) % 60;
  const short = m ? `${h}:${String(m).padStart(2, '0')}` : `${h}`;
  const long = `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
  return [`utc${sign}${long}`, `utc${sign}${short}`, `gmt${sign}${short}`];
}

/**
 * Every zone, ordered: `first` (the user's zones), the common ones, then the rest by offset
 * and name. Zones this browser does not know are left out.
 */
export function zoneCatalog(lang: Lang, now: number, first: readonly string[]): ZoneOption[] {
  const pinned = [...new Set(first.map(canonicalZone))].filter((z) => z in JA);
  const common = Object.keys(COMMON_ZONES).filter((z) => !pinned.includes(z));
  const collator = new Intl.Collator(lang);
  const options = Object.keys(JA)
    .filter(isValidTimeZone)
    .map((id) => {
      const minutes = offsetMinutes(now, id);
      const names = [JA[id]!, zoneName(id, 'en')];
      return {
        id,
        name: zoneName(id, lang),
        offset: utcOffsetText(minutes),
        minutes,
        common: pinned.includes(id) || common.includes(id),
        haystack: [...names, cityOfId(id), id, ...legacyNames(id), ...offsetTexts(minutes)].map(fold),
        order: 0,
      };
    });
  const rank = (o: (typeof options)[number]) => {
    const p = pinned.indexOf(o.id);
    if (p >= 0) return p;
    const c = common.indexOf(o.id);
    return c >= 0 ? pinned.length + c : Infinity;
  };
  options.sort((a, b) => rank(a) - rank(b) || a.minutes - b.minutes || collator.compare(a.name, b.name));
  return options.map(({ minutes: _, ...o }, order) => ({ ...o, order }));
}

/** Haystack fields that are names (ja, en, the id's city); the ids and offsets follow. */
const NAME_FIELDS = 3;

/**
 * The zones matching `query`: a field equal to it first ("utc" is UTC), then names starting
 * with it, then other fields starting with it, then any field containing it; the catalog's
 * order within each. An empty query is all.
 */
export function searchZones(catalog: readonly ZoneOption[], query: string): ZoneOption[] {
  const q = fold(query);
  if (!q) return [...catalog];
  const scored: [number, ZoneOption][] = [];
  for (const o of catalog) {
    let score = Infinity;
    o.haystack.forEach((text, i) => {
      if (text === q) score = 0;
      else if (text.startsWith(q)) score = Math.min(score, i < NAME_FIELDS ? 1 : 2);
      else if (text.includes(q)) score = Math.min(score, 3);
    });
    if (score < Infinity) scored.push([score, o]);
  }
  return scored.sort((a, b) => a[0] - b[0] || a[1].order - b[1].order).map(([, o]) => o);
}
