import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSWRConfig } from 'swr';
import { toast } from '../../../components/toast';
import { isApiError } from '../../../lib/api';
import { errorSummary } from '../../../lib/apiErrors';
import { isReminderKey } from '../../../lib/swrKeys';
import type { Reminder } from '../../../lib/types';
import { isActive } from '../reminderLogic';
import { snoozeAll } from '../useReminders';

/** The lengths the menu offers besides the person's default snooze. */
export const SNOOZE_ALL_MINUTES = [10, 30, 60] as const;

/** Whether anything is there to snooze all of: an active reminder that rang and got no action. */
export function hasOverdue(reminders: readonly Reminder[] | undefined): boolean {
  return (reminders ?? []).some((r) => isActive(r) && r.overdue === true);
}

/**
 * "Snooze all" (decisions.md "Reach and rhythm"): shown while something is overdue, it snoozes
 * every overdue or ringing occurrence at once (`POST /api/reminders/snooze-all`) for the chosen
 * minutes (the person's default first), then reloads the reminders and says how many it snoozed.
 * It needs the server (nothing queues it): offline it is disabled and says why.
 */
export function SnoozeAll({ reminders, defaultMinutes, online }: { reminders: readonly Reminder[] | undefined; defaultMinutes: number; online: boolean }) {
  const { t } = useTranslation(['reminders', 'errors']);
  const { mutate } = useSWRConfig();
  const ids = useId();
  const [chosen, setChosen] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  if (!hasOverdue(reminders)) return null;
  const minutes = chosen ?? defaultMinutes;
  const choices = [...new Set([defaultMinutes, ...SNOOZE_ALL_MINUTES])].sort((a, b) => a - b);
  const reasonId = `${ids}-offline`;

  async function run() {
    setBusy(true);
    try {
      const { snoozed } = await snoozeAll({ snooze_minutes: minutes });
      if (snoozed > 0) toast.success(t('snoozeAll.done', { count: snoozed }));
      else toast.info(t('snoozeAll.none'));
      await mutate(isReminderKey);
    } catch (e) {
      toast.error(isApiError(e, 'VALIDATION_FAILED') ? errorSummary(t, e) : t('snoozeAll.failed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="snooze-all row">
      <span className="snooze-group">
        <label className="visually-hidden" htmlFor={`${ids}-for`}>
          {t('snoozeAll.for')}
        </label>
        <select id={`${ids}-for`} value={minutes} onChange={(e) => setChosen(Number(e.target.value))} disabled={busy || !online}>
          {choices.map((m) => (
            <option key={m} value={m}>
              {t('snoozeAll.minutes', { n: m })}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button small secondary"
          disabled={busy || !online}
          aria-describedby={online ? `${ids}-hint` : `${ids}-hint ${reasonId}`}
          onClick={() => void run()}
        >
          {t('snoozeAll.button')}
        </button>
      </span>
      <span id={`${ids}-hint`} className="small hint">
        {t('snoozeAll.hint')}
      </span>
      {!online && (
        <span id={reasonId} className="small hint">
          {t('snoozeAll.offline')}
        </span>
      )}
    </div>
  );
}
