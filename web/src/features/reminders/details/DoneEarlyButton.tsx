import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSWRConfig } from 'swr';
import { toast } from '../../../components/toast';
import { api } from '../../../lib/api';
import { isReminderKey } from '../../../lib/swrKeys';
import type { Reminder } from '../../../lib/types';
import type { Dates } from '../../../shared/useDates';

/**
 * Done early, before it rings (`POST /api/reminders/{id}/complete`): a one-time reminder is
 * completed; a recurring one's next occurrence will not ring, and the toast says when it rings
 * next. Needs the network: offline it is disabled and says why.
 */
export function DoneEarlyButton({ reminder, dates, online, className = 'button small secondary' }: { reminder: Reminder; dates: Dates; online: boolean; className?: string }) {
  const { t } = useTranslation('reminders');
  const { mutate } = useSWRConfig();
  const [busy, setBusy] = useState(false);
  const reasonId = `done-early-offline-${reminder.id}`;

  async function done() {
    setBusy(true);
    try {
      const after = await api.reminders.completeEarly(reminder.id);
      if (after.is_archived || !after.scheduled_at) toast.success(t('details.completedToast'));
      else toast.success(t('doneEarly.movedOn', { when: dates.when(after.scheduled_at, after.timezone) }));
      await mutate(isReminderKey);
    } catch {
      toast.error(t('details.actionFailed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button
        type="button"
        className={className}
        disabled={busy || !online}
        aria-describedby={online ? undefined : reasonId}
        aria-label={t('doneEarly.named', { title: reminder.title })}
        onClick={() => void done()}
      >
        {t('doneEarly.button')}
      </button>
      {!online && (
        <span id={reasonId} className="small hint">
          {t('doneEarly.offline')}
        </span>
      )}
    </>
  );
}
