/**
 * The zones the picker offers first, with their Japanese names (so the closed picker names
 * them without loading the whole name table; a test checks them against zoneNames.ja.json).
 */
export const COMMON_ZONES: Readonly<Record<string, string>> = {
  'Asia/Tokyo': '東京',
  UTC: '協定世界時',
  'America/New_York': 'ニューヨーク',
  'America/Los_Angeles': 'ロサンゼルス',
  'America/Chicago': 'シカゴ',
  'Europe/London': 'ロンドン',
  'Europe/Paris': 'パリ',
  'Europe/Berlin': 'ベルリン',
  'Australia/Sydney': 'シドニー',
  'Asia/Singapore': 'シンガポール',
  'Asia/Seoul': 'ソウル',
  'Asia/Shanghai': '上海',
  'Asia/Taipei': '台北',
  'Asia/Hong_Kong': '香港',
  'Asia/Bangkok': 'バンコク',
  'Pacific/Honolulu': 'ホノルル',
  'Asia/Kolkata': 'コルカタ',
};

/** UTC has no city: its English name (the others' is the id's last part). */
export const UTC_NAME_EN = 'Coordinated Universal Time';

/** The city part of an id: America/New_York -> New York. */
export function cityOfId(id: string): string {
  return id.slice(id.lastIndexOf('/') + 1).replaceAll('_', ' ');
}

/** An offset as the picker writes it: UTC+09:00, UTC−05:00 (a real minus sign), UTC+05:30. */
export function utcOffsetText(minutes: number): string {
  const a = Math.abs(minutes);
  return `UTC${minutes < 0 ? '\u2212' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}
