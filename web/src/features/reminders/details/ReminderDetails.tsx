import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { Reminder } from '../../../lib/types';
import { useLang } from '../../../lib/useLang';
import { useDates } from '../../../shared/useDates';
import { alertsText, escalationText, nagText } from '../alarmText';
import { DeliveryHistory } from './DeliveryHistory';
import { DoneEarlyButton } from './DoneEarlyButton';
import { latestLog } from '../reminderLogic';
import { SnoozeMenu } from '../actions/SnoozeMenu';
import type { SnoozeClock } from '../actions/snoozeUntil';
import { UpcomingOccurrences } from './UpcomingOccurrences';
import { useDeliveryLogs } from './useDeliveryLogs';
import { useDetailActions } from './useDetailActions';
import { useOccurrences, usePeople } from '../usePeople';
import { useSnoozeChoice } from '../actions/useSnoozeChoice';

// Trigger links (and their texts) load with the first details opened, not with the page.
const TriggerLinks = lazy(() => import('./TriggerLinks'));

/**
 * A reminder's details (opened from the list, or by `?reminder=<id>` from a notification): the
 * next occurrences, the delivery history, and Complete / Snooze (for the latest delivery) and
 * Send now, and its trigger links (./TriggerLinks). Complete and snooze are queued when offline.
 * In a shared list (`shared`), whose turn each occurrence is, whose each device is and who acted.
 */
export function ReminderDetails({
  reminder,
  snoozeMinutes,
  snoozeClock,
  online = true,
  shared = false,
}: {
  reminder: Reminder;
  snoozeMinutes: number;
  snoozeClock: SnoozeClock;
  online?: boolean;
  /** its list has more than one person */
  shared?: boolean;
}) {
  const { t } = useTranslation(['reminders', 'errors']);
  const lang = useLang();
  const dates = useDates();
  const id = reminder.id;
  const occurrences = useOccurrences(reminder.is_archived ? null : id);
  // (a reminder kept offline by an older version may have no assignees)
  // (a step that tells a member names them)
  const inShared = shared || (reminder.assignees?.length ?? 0) > 0 || (reminder.repeat_until_done?.escalate ?? []).some((s) => s.to === 'member');
  const people = usePeople(inShared ? reminder.list_id : null);
  const logs = useDeliveryLogs(id);
  const snooze = useSnoozeChoice(snoozeMinutes, snoozeClock);
  const last = latestLog(logs.data ?? []);
  const { busy, handle, skipNext, sendNow } = useDetailActions({
    reminder,
    last,
    nextOccurrence: occurrences.data?.occurrences[0],
    snoozeMinutes,
    snoozeBody: snooze.body,
    dates,
  });
  const recurring = (reminder.recurrence?.kind ?? 'none') !== 'none';
  const offlineId = `details-offline-${id}`;
  // Any delivered reminder can be completed or snoozed here, also while snoozed.
  const canHandle = !reminder.is_archived && last !== null;
  const when = (iso: string) => dates.when(iso, reminder.timezone);
  const alarms = [
    alertsText(reminder.alerts, t, lang),
    nagText(reminder.repeat_until_done, t),
    escalationText(reminder.repeat_until_done, t, people.nameOf),
    reminder.break_through ? t('breakThrough.on') : null,
  ].filter(Boolean);

  return (
    <div className="reminder-details">
      {alarms.length > 0 && (
        <p className="small alarm-summary">
          <span className="visually-hidden">{t('alarms.heading')}: </span>
          {alarms.join(t('recurrence.label.separator'))}
        </p>
      )}
      {!reminder.is_archived && (
        <UpcomingOccurrences
          id={id}
          loading={occurrences.isLoading}
          failed={!!occurrences.error}
          occurrences={occurrences.data?.occurrences ?? []}
          rings={occurrences.data?.rings}
          when={when}
          turns={occurrences.data?.assignees}
          nameOf={people.nameOf}
        />
      )}
      <DeliveryHistory id={id} loading={logs.isLoading} failed={!!logs.error} logs={logs.data ?? []} when={when} people={inShared ? people : null} />
      <div className="row">
        {canHandle && (
          <>
            <button type="button" className="button small primary" disabled={busy !== null} onClick={() => void handle('complete')}>
              {t('details.complete')}
            </button>
            <SnoozeMenu id={id} snooze={snooze} clock={snoozeClock} disabled={busy !== null} onSnooze={() => void handle('snooze')} />
          </>
        )}
        {/* Before it rings (or, recurring, once the last one is done): done early. */}
        {!reminder.is_archived && (!canHandle || (recurring && last?.action === 'complete')) && (
          <DoneEarlyButton reminder={reminder} dates={dates} online={online} className="button small primary" />
        )}
        {!reminder.is_archived && recurring && (
          <button
            type="button"
            className="button small secondary"
            disabled={busy !== null || !online}
            aria-describedby={online ? undefined : offlineId}
            onClick={() => void skipNext()}
          >
            {t('details.skipNext')}
          </button>
        )}
        {!reminder.is_archived && (
          <button
            type="button"
            className="button small secondary"
            disabled={busy !== null || !online}
            aria-describedby={online ? undefined : offlineId}
            onClick={() => void sendNow()}
          >
            {t('details.sendNow')}
          </button>
        )}
      </div>
      {/* Skip and send now need the server there and then: offline they wait, and say why. */}
      {!online && !reminder.is_archived && (
        <p id={offlineId} className="small hint">
          {t(recurring ? 'details.offlineSkipSend' : 'details.offlineSend')}
        </p>
      )}
      {canHandle && snooze.choice === 'pick' && snooze.pickError && (
        <p id={`snooze-at-${id}-err`} className="field-error" role="alert">
          {t(snooze.pickError)}
        </p>
      )}
      {!canHandle && !reminder.is_archived && <p className="hint">{t('details.handleHint')}</p>}
      {!reminder.is_archived && (
        <Suspense fallback={null}>
          <TriggerLinks reminderId={id} title={reminder.title} online={online} />
        </Suspense>
      )}
    </div>
  );
}
