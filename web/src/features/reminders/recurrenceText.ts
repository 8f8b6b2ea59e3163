/**
 * A recurrence in words, in the app's language: the pattern ("Every 2 weeks on Tue, Thu",
 * "毎月第2火曜日"), then its end and holiday rule ("until …", "5 times", "祝日は翌営業日").
 * Skipped dates are not named here: the dialog lists them and the preview marks them.
 */
import type { TFunction } from 'i18next';
import { formatDay } from '../../lib/format';
import type { Lang } from '../../lib/lang';
import type { Recurrence } from '../../lib/types';

const UNIT = { daily: 'days', weekly: 'weeks', custom: 'weeks', monthly: 'months', yearly: 'years' } as const;

/** "Every 3 weeks" / "3週間ごと"; 2 has its own word in Japanese (隔週, 隔月…). */
function every(t: TFunction, kind: keyof typeof UNIT, n: number): string {
  return n === 2 ? t(`recurrence.label.${UNIT[kind]}Other`) : t(`recurrence.label.${UNIT[kind]}`, { n });
}

/** The weekday key (`mon`…`sun`) of an instant in a zone. */
function weekdayOf(iso: string, zone: string): string | null {
  try {
    const name = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: zone }).format(new Date(iso));
    return name.slice(0, 3).toLowerCase();
  } catch {
    return null;
  }
}

/** Where a weekly rule falls: its first time, in its zone. */
export type Anchor = { at: string; zone: string };

function pattern(rec: Recurrence, t: TFunction, lang: Lang, anchor?: Anchor): string {
  const n = 'interval' in rec && typeof rec.interval === 'number' ? rec.interval : 1;
  switch (rec.kind) {
    case 'hourly':
      return t('recurrence.everyNHours', { n: rec.interval_hours });
    case 'custom': {
      const days = rec.days.map((d) => t(`weekdays.${d}`)).join(t('recurrence.daySeparator'));
      return n === 1 ? t('recurrence.customDays', { days }) : t('recurrence.label.everyOn', { every: every(t, 'custom', n), on: days });
    }
    case 'monthly': {
      const on =
        rec.week != null && rec.weekday
          ? t('recurrence.label.nthWeekday', { nth: t(`recurrence.nth.${rec.week === -1 ? 'last' : rec.week}`), weekday: t(`weekdaysLong.${rec.weekday}`) })
          : rec.day === -1
            ? t('recurrence.label.lastDay')
            : rec.day != null
              ? t('recurrence.label.dayOfMonth', { count: rec.day, ordinal: true })
              : null;
      if (n === 1) return on ? t('recurrence.label.monthlyOn', { on }) : t('recurrence.monthly');
      return on ? t('recurrence.label.everyOn', { every: every(t, 'monthly', n), on }) : every(t, 'monthly', n);
    }
    case 'weekly': {
      // A weekly rule rings on its first time's weekday: say which ("Every Friday", 「毎週金曜日」).
      const day = anchor ? weekdayOf(anchor.at, anchor.zone) : null;
      if (!day) return n === 1 ? t('recurrence.weekly') : every(t, 'weekly', n);
      if (n === 1) return t('recurrence.label.weeklyOn', { day: t(`weekdaysLong.${day}`) });
      return t('recurrence.label.everyOn', { every: every(t, 'weekly', n), on: t(lang === 'en' ? `weekdays.${day}` : `weekdaysLong.${day}`) });
    }
    case 'daily':
    case 'yearly':
      return n === 1 ? t(`recurrence.${rec.kind}`) : every(t, rec.kind, n);
    default:
      return t(`recurrence.${rec.kind}`);
  }
}

/** `now` and `zone` place "this year" (the end date shows its year only when it is another). */
export function recurrenceText(rec: Recurrence | undefined, t: TFunction, lang: Lang, now = Date.now(), zone?: string, anchor?: Anchor): string {
  const r = rec ?? { kind: 'none' };
  if (r.kind === 'none') return t('recurrence.none');
  const parts = [pattern(r, t, lang, anchor)];
  if (r.until) parts.push(t('recurrence.label.until', { date: formatDay(r.until, { lang, now, zone, weekday: false }) }));
  if (r.count != null) parts.push(t('recurrence.label.times', { count: r.count }));
  if (r.holidays && r.holidays !== 'ignore') parts.push(t(`recurrence.label.holidays.${r.holidays}`));
  return parts.join(t('recurrence.label.separator'));
}
