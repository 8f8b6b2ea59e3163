import { deviceZone } from '../../lib/zoneIds';
import { useSettings } from '../../shared/useSettings';
import type { SnoozeClock } from './actions/snoozeUntil';

/** What the reminders page takes from the account's settings, with the defaults while they are unknown. */
export function useReminderSettings() {
  const settings = useSettings();
  // New reminders default to the user's timezone setting (decisions.md), else the browser's.
  const defaultTz = settings.data?.timezone || deviceZone();
  // "This evening" / "tomorrow morning" are the settings' times in the settings' zone.
  const snoozeClock: SnoozeClock = {
    timezone: defaultTz,
    morningTime: settings.data?.morning_time ?? '08:00',
    eveningTime: settings.data?.evening_time ?? '18:00',
  };
  return {
    /** loaded or failed: either way a new reminder's zone is decided */
    known: settings.data !== undefined || settings.error !== undefined,
    defaultTz,
    snoozeMinutes: settings.data?.default_snooze_minutes ?? 10,
    snoozeClock,
  };
}
