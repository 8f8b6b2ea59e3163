import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSWRConfig } from 'swr';
import { toast } from '../../../components/toast';
import { api, isApiError } from '../../../lib/api';
import { errorSummary } from '../../../lib/apiErrors';
import { enqueue } from '../../../lib/offline/offlineSync';
import { isReminderKey, swrKeys } from '../../../lib/swrKeys';
import type { DeliveryLog, Reminder } from '../../../lib/types';
import type { Dates } from '../../../shared/useDates';
import type { SnoozeBody } from '../actions/useSnoozeChoice';
import { skipNextOccurrence, useReminderMutations } from '../useReminders';

export type DetailAction = 'complete' | 'snooze' | 'send' | 'skip';

/**
 * What the details' buttons do: Complete and Snooze for the latest delivery (queued when
 * offline), Skip next, Send now; each says what happened, and one at a time (`busy`).
 */
export function useDetailActions({
  reminder,
  last,
  nextOccurrence,
  snoozeMinutes,
  snoozeBody,
  dates,
}: {
  reminder: Reminder;
  /** the latest delivery, which Complete and Snooze answer */
  last: DeliveryLog | null;
  /** the next occurrence, named when the server's answer does not say which date was skipped */
  nextOccurrence: string | undefined;
  snoozeMinutes: number;
  snoozeBody: () => SnoozeBody | null;
  dates: Dates;
}) {
  const { t } = useTranslation(['reminders', 'errors']);
  const { mutate } = useSWRConfig();
  const { update } = useReminderMutations();
  const [busy, setBusy] = useState<null | DetailAction>(null);
  const id = reminder.id;

  async function handle(action: 'complete' | 'snooze') {
    if (!last) return;
    const snooze = action === 'snooze' ? snoozeBody() : undefined;
    if (snooze === null) return;
    const minutes = snooze && 'snooze_minutes' in snooze ? snooze.snooze_minutes : snoozeMinutes;
    setBusy(action);
    try {
      if (!navigator.onLine) {
        await enqueue({ type: action, reminderId: id, logId: last.id, data: snooze });
        toast.success(t('toast.queued'));
      } else {
        const after = await api.reminders.handle({ reminder_id: id, log_id: last.id, action, ...snooze });
        toast.success(
          action === 'complete'
            ? t('details.completedToast')
            : after?.snoozed_until
              ? t('details.snoozedUntilToast', { when: dates.when(after.snoozed_until, reminder.timezone) })
              : t('details.snoozedToast', { n: minutes }),
        );
      }
      await mutate(isReminderKey);
    } catch (e) {
      // A refused snooze time says why (in the reader's language); anything else is generic.
      toast.error(isApiError(e, 'VALIDATION_FAILED') ? errorSummary(t, e) : t('details.actionFailed'));
    } finally {
      setBusy(null);
    }
  }

  async function skipNext() {
    setBusy('skip');
    try {
      const before = new Set(reminder.recurrence?.skip ?? []);
      const after = await skipNextOccurrence(id);
      // The toast names the date the server added to `skip`.
      const added = (after.recurrence.skip ?? []).filter((d) => !before.has(d)).sort()[0];
      const date = added ? dates.day(added) : nextOccurrence ? dates.when(nextOccurrence, reminder.timezone) : '';
      // Undo takes that date out of `skip` again; without knowing the date there is nothing to undo.
      if (added) toast.success(t('details.skippedToast', { date }), { action: { label: t('details.undo'), run: () => void undoSkip(after, added, date) } });
      else toast.success(t('details.skippedNoUndoToast', { date }));
      await mutate(isReminderKey);
    } catch (e) {
      toast.error(isApiError(e, 'VALIDATION_FAILED') ? errorSummary(t, e) : t('details.skipFailed'));
    } finally {
      setBusy(null);
    }
  }

  /**
   * Undo of a skip: PUT the reminder's recurrence (as the skip answered it) without the skipped
   * date. Offline, the edit is queued like any other and shows at once.
   */
  async function undoSkip(after: Reminder, added: string, date: string) {
    const recurrence = { ...after.recurrence, skip: (after.recurrence.skip ?? []).filter((d) => d !== added) };
    try {
      await update(id, { recurrence });
      toast.success(navigator.onLine ? t('details.skipUndoneToast', { date }) : t('toast.queued'));
      await mutate(isReminderKey);
    } catch (e) {
      toast.error(isApiError(e, 'VALIDATION_FAILED') ? errorSummary(t, e) : t('details.undoFailed', { date }));
    }
  }

  async function sendNow() {
    setBusy('send');
    try {
      const answer = await api.reminders.sendNow(id);
      // Say what really happened: to how many devices, by email, or nowhere.
      if (answer && answer.devices > 0) toast.success(t('details.sentTo', { count: answer.devices }));
      else if (answer?.email) toast.warning(t('details.sentByEmail'));
      else toast.error(t('details.sentNowhere'));
      await mutate(swrKeys.logs(id));
    } catch (e) {
      toast.error(isApiError(e, 'SUBSCRIPTION_NOT_FOUND') ? t('details.noDevice') : t('details.sendFailed'));
    } finally {
      setBusy(null);
    }
  }

  return { busy, handle, skipNext, sendNow };
}
