// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { canonicalZone, legacyNames, sameZone } from '../lib/zoneIds';
import { COMMON_ZONES, utcOffsetText } from './commonZones';
import { fold, searchZones, zoneCatalog, zoneName } from './zoneCatalog';
import jaNames from './zoneNames.ja.json';

// Tue 2026-11-24 (New York on standard time, Sydney on summer time).
const NOW = Date.parse('2026-11-24T03:00:00Z');
const ids = (lang: 'ja' | 'en', query: string, first: string[] = ['Asia/Tokyo']) => searchZones(zoneCatalog(lang, NOW, first), query).map((o) => o.id);

describe('canonical zone names', () => {
  it.each([
    ['Asia/Calcutta', 'Asia/Kolkata'],
    ['Asia/Saigon', 'Asia/Ho_Chi_Minh'],
    ['Asia/Katmandu', 'Asia/Kathmandu'],
    ['Asia/Rangoon', 'Asia/Yangon'],
    ['Europe/Kiev', 'Europe/Kyiv'],
    ['America/Godthab', 'America/Nuuk'],
    ['Pacific/Enderbury', 'Pacific/Kanton'],
    ['Atlantic/Faeroe', 'Atlantic/Faroe'],
    ['Pacific/Truk', 'Pacific/Chuuk'],
    ['Pacific/Ponape', 'Pacific/Pohnpei'],
    ['America/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ['America/Cordoba', 'America/Argentina/Cordoba'],
    ['America/Indianapolis', 'America/Indiana/Indianapolis'],
    ['Etc/UTC', 'UTC'],
    ['Asia/Tokyo', 'Asia/Tokyo'],
    ['Europe/Bratislava', 'Europe/Bratislava'],
  ])('%s is %s', (icu, iana) => {
    expect(canonicalZone(icu)).toBe(iana);
  });

  it('offers canonical names only: every id this browser lists maps into the list, no legacy id is in it', () => {
    const list = new Set(zoneCatalog('en', NOW, []).map((o) => o.id));
    for (const id of Intl.supportedValuesOf('timeZone')) expect(list, id).toContain(canonicalZone(id));
    for (const legacy of ['Asia/Calcutta', 'Asia/Saigon', 'Europe/Kiev', 'America/Buenos_Aires', 'Pacific/Truk', 'Etc/UTC']) expect(list.has(legacy), legacy).toBe(false);
  });

  it('a link and its target are the same zone', () => {
    expect(sameZone('Asia/Calcutta', 'Asia/Kolkata')).toBe(true);
    expect(sameZone('Asia/Tokyo', 'Asia/Seoul')).toBe(false);
    expect(legacyNames('Asia/Kolkata')).toEqual(['Asia/Calcutta']);
  });

  it('the common table’s Japanese names are the generated ones', () => {
    for (const [id, name] of Object.entries(COMMON_ZONES)) expect((jaNames as Record<string, string>)[id], id).toBe(name);
  });
});

describe('zone names and offsets', () => {
  it.each([
    ['Asia/Tokyo', '東京', 'Tokyo'],
    ['America/New_York', 'ニューヨーク', 'New York'],
    ['America/Sao_Paulo', 'サンパウロ', 'São Paulo'],
    ['Asia/Calcutta', 'コルカタ', 'Kolkata'],
    ['UTC', '協定世界時', 'Coordinated Universal Time'],
  ])('%s: %s / %s', (id, ja, en) => {
    expect(zoneName(id, 'ja')).toBe(ja);
    expect(zoneName(id, 'en')).toBe(en);
  });

  it('writes offsets with a real minus sign and minutes', () => {
    expect([utcOffsetText(540), utcOffsetText(-300), utcOffsetText(330), utcOffsetText(0), utcOffsetText(-570)]).toEqual(['UTC+09:00', 'UTC\u221205:00', 'UTC+05:30', 'UTC+00:00', 'UTC\u221209:30']);
  });

  it('gives each zone its offset at the moment (a DST zone changes)', () => {
    const offset = (now: number, id: string) => zoneCatalog('en', now, []).find((o) => o.id === id)?.offset;
    expect(offset(NOW, 'America/New_York')).toBe('UTC\u221205:00');
    expect(offset(Date.parse('2026-07-01T00:00:00Z'), 'America/New_York')).toBe('UTC\u221204:00');
    expect(offset(NOW, 'Australia/Sydney')).toBe('UTC+11:00');
  });
});

describe('the list order', () => {
  it('the user’s zones first, then the common ones, then the rest by offset', () => {
    const list = ids('ja', '', ['Europe/Kiev', 'Asia/Tokyo']);
    expect(list.slice(0, 4)).toEqual(['Europe/Kyiv', 'Asia/Tokyo', 'UTC', 'America/New_York']);
    const common = Object.keys(COMMON_ZONES).filter((z) => z !== 'Asia/Tokyo');
    expect(list.slice(2, 2 + common.length)).toEqual(common);
    expect(list.at(-1)).toBe('Pacific/Kiritimati'); // UTC+14, the last offset
    expect(new Set(list).size).toBe(list.length);
  });
});

describe('searching', () => {
  it.each([
    ['ja', '東京', 'Asia/Tokyo'],
    ['en', '東京', 'Asia/Tokyo'],
    ['en', 'New York', 'America/New_York'],
    ['en', 'new york', 'America/New_York'],
    ['ja', 'new york', 'America/New_York'],
    ['ja', 'ニューヨーク', 'America/New_York'],
    ['ja', 'にゅーよーく', 'America/New_York'], // hiragana finds the katakana name
    ['en', 'ｎｅｗ ｙｏｒｋ', 'America/New_York'], // full-width
    ['en', 'NEW_YORK', 'America/New_York'],
    ['en', 'kolkata', 'Asia/Kolkata'],
    ['en', 'calcutta', 'Asia/Kolkata'],
    ['ja', 'コルカタ', 'Asia/Kolkata'],
    ['en', 'sao paulo', 'America/Sao_Paulo'],
    ['en', 'saigon', 'Asia/Ho_Chi_Minh'],
    ['en', 'kiev', 'Europe/Kyiv'],
    ['en', 'asia/tok', 'Asia/Tokyo'],
    ['en', 'UTC+05:30', 'Asia/Kolkata'],
    ['ja', 'ｕｔｃ＋５：３０', 'Asia/Kolkata'],
    ['en', 'utc\u221205:00', 'America/New_York'],
    ['en', 'GMT-5', 'America/New_York'],
    ['en', 'utc', 'UTC'],
    ['ja', '協定', 'UTC'],
  ] as const)('%s: "%s" finds %s first', (lang, query, id) => {
    expect(ids(lang, query)[0]).toBe(id);
  });

  it('a name that starts with the words comes before one that contains them', () => {
    const list = ids('en', 'york');
    expect(list[0]).toBe('America/New_York');
    expect(ids('en', 'paris')[0]).toBe('Europe/Paris');
  });

  it('an offset finds every zone at that offset, and only those', () => {
    const list = ids('en', 'UTC+09:00');
    expect(list).toContain('Asia/Tokyo');
    expect(list).toContain('Asia/Seoul');
    expect(list).not.toContain('Asia/Shanghai');
    expect(list).not.toContain('Australia/Adelaide'); // UTC+10:30 in November
  });

  it('nothing for nonsense; everything for an empty query', () => {
    expect(ids('ja', 'zzzz')).toEqual([]);
    expect(ids('ja', '  ')).toHaveLength(zoneCatalog('ja', NOW, []).length);
  });

  it('folds case, width, kana and separators', () => {
    expect(fold('Ｎｅｗ＿Ｙｏｒｋ')).toBe('newyork');
    expect(fold('とうきょう')).toBe('トウキョウ'.toLowerCase());
    expect(fold('São Paulo')).toBe('saopaulo');
    expect(fold('UTC\u221205:00')).toBe('utc-05:00');
  });
});
