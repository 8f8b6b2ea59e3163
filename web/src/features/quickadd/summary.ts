import type { TFunction } from 'i18next';
import { formatWhen } from '../../lib/format';
import type { Lang } from '../../lib/lang';
import type { Recurrence, Weekday } from '../../lib/types';
import { WEEKDAYS } from '../../lib/types';
import type { QuickAddResult } from './parse';

const EN_ORDINAL: Record<string, string> = { one: 'st', two: 'nd', few: 'rd', other: 'th' };
const ordinal = (n: number, lang: Lang) => (lang === 'en' ? `${n}${EN_ORDINAL[new Intl.PluralRules('en-US', { type: 'ordinal' }).select(n)]}` : String(n));

/** The repeat in words (reminders:quickAdd.repeat.*): 毎週月曜, every 2nd Tuesday; null for a one-time reminder. */
export function repeatText(rec: Recurrence, startDate: string | null, lang: Lang, t: TFunction): string | null {
  const day = (d: Weekday) => t(`quickAdd.weekdays.${d}`);
  const startDay = startDate ? WEEKDAYS[(new Date(`${startDate}T00:00:00Z`).getUTCDay() + 6) % 7]! : null;
  const n = 'interval' in rec && typeof rec.interval === 'number' ? rec.interval : 1;
  switch (rec.kind) {
    case 'none':
      return null;
    case 'hourly':
      return rec.interval_hours === 1 ? t('quickAdd.repeat.hourly') : t('quickAdd.repeat.everyNHours', { n: rec.interval_hours });
    case 'daily':
      return n === 1 ? t('quickAdd.repeat.daily') : t('quickAdd.repeat.everyNDays', { n });
    case 'weekly':
      if (!startDay) return n === 1 ? t('quickAdd.repeat.weekly') : t('quickAdd.repeat.everyNWeeksOn', { n, day: '' }).trim();
      return n === 1 ? t('quickAdd.repeat.weeklyOn', { day: day(startDay) }) : n === 2 ? t('quickAdd.repeat.everyOtherWeekOn', { day: day(startDay) }) : t('quickAdd.repeat.everyNWeeksOn', { n, day: day(startDay) });
    case 'weekdays':
      return t('quickAdd.repeat.weekdays');
    case 'custom': {
      const days = rec.days.map(day).join(t('quickAdd.daySeparator'));
      return n === 1 ? t('quickAdd.repeat.custom', { days }) : t('quickAdd.repeat.everyNWeeksCustom', { n, days });
    }
    case 'monthly': {
      const every = n === 1 ? t('quickAdd.repeat.monthly') : t('quickAdd.repeat.everyNMonths', { n });
      if (rec.day === -1) return t('quickAdd.repeat.monthlyLastDay', { every });
      if (rec.day != null) return t('quickAdd.repeat.monthlyDay', { every, n: rec.day });
      if (rec.week != null && rec.weekday) {
        return rec.week === -1 ? t('quickAdd.repeat.monthlyLast', { every, day: day(rec.weekday) }) : t('quickAdd.repeat.monthlyNth', { every, n: ordinal(rec.week, lang), day: day(rec.weekday) });
      }
      return every;
    }
    case 'yearly':
      return n === 1 ? t('quickAdd.repeat.yearly') : t('quickAdd.repeat.everyNYears', { n });
  }
}

/** "明日 9:00 · 毎週月曜 · 薬": when, the repeat, the title. */
export function summaryParts(r: QuickAddResult, lang: Lang, now: number, t: TFunction): string[] {
  let when = t('quickAdd.noTime');
  // The phrase's zone is the user's (the settings'), so it is not named.
  if (r.send_at && r.date) when = formatWhen(r.send_at, { lang, zone: r.timezone, userZone: r.timezone, now });
  const repeat = repeatText(r.recurrence, r.date, lang, t);
  return [when, ...(repeat ? [repeat] : []), r.title || t('quickAdd.noTitle')];
}
