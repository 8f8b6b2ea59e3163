import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/Dialog';
import { useNotificationAction } from './useNotificationAction';

/**
 * Performs a notification button's action from the address (`useNotificationAction`), and asks
 * first when the link came without its token. `titleOf` names the reminder when the page knows it.
 */
export function NotificationActionPrompt({ titleOf }: { titleOf: (reminderId: string) => string | undefined }) {
  const { t } = useTranslation('reminders');
  const { asking, confirm, cancel } = useNotificationAction();
  const title = asking ? titleOf(asking.reminderId) : undefined;
  return (
    <Dialog
      open={asking !== null}
      title={asking?.action === 'snooze' ? t('details.fromNotification.ask.snooze') : t('details.fromNotification.ask.complete')}
      onClose={cancel}
      footer={
        <>
          <button type="button" className="button secondary" onClick={cancel}>
            {t('dialog.cancel')}
          </button>
          <button type="button" className="button primary" onClick={confirm}>
            {t('details.fromNotification.ask.confirm')}
          </button>
        </>
      }
    >
      {title && <p className="reminder-title">{title}</p>}
      <p>{t('details.fromNotification.ask.why')}</p>
    </Dialog>
  );
}
