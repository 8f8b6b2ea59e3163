import { useMemo } from 'react';
import { useAuth } from '../lib/authStore';
import { formatDay, formatWhen, whenParts } from '../lib/format';
import { useLang } from '../lib/useLang';
import { useNow } from '../lib/useNow';
import { deviceZone } from '../lib/zoneIds';
import { useSettings } from './useSettings';

/** The signed-in user's time zone (their settings), else this device's. */
export function useUserZone(): string {
  const { user } = useAuth();
  const settings = useSettings({ enabled: user !== null });
  return settings.data?.timezone || deviceZone();
}

/**
 * formatWhen and formatDay bound to the page's language, the user's zone and the current
 * minute: `when(iso, reminder.timezone)`, `day('2027-03-31')`.
 */
export function useDates() {
  const lang = useLang();
  const userZone = useUserZone();
  const now = useNow(60_000);
  return useMemo(
    () => ({
      lang,
      userZone,
      now,
      when: (at: string | number, zone?: string) => formatWhen(at, { lang, zone, userZone, now }),
      whenParts: (at: string | number, zone?: string) => whenParts(at, { lang, zone, userZone, now }),
      day: (date: string, weekday = true) => formatDay(date, { lang, now, zone: userZone, weekday }),
    }),
    [lang, userZone, now],
  );
}

export type Dates = ReturnType<typeof useDates>;
