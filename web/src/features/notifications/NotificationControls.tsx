import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../components/toast';
import { enableNotifications, PushError, sendTestNotification } from './pushClient';
import { pushStateChanged, usePushState } from './usePushState';

/** Enable control: disabled when permission is denied. */
export function NotificationToggle() {
  const { t } = useTranslation('notifications');
  const push = usePushState();
  const [busy, setBusy] = useState(false);

  if (!push.supported) {
    return (
      <span className="badge muted" title={t('unsupported')}>
        {t('unsupportedShort')}
      </span>
    );
  }
  const denied = push.permission === 'denied';
  const on = push.permission === 'granted' && push.subscribed === true;

  async function enable() {
    setBusy(true);
    try {
      await enableNotifications();
      toast.success(t('enabled'));
    } catch (e) {
      const code = e instanceof PushError ? e.code : 'failed';
      toast.error(code === 'failed' ? t('enableFailed') : t(`errors.${code}`));
    } finally {
      setBusy(false);
      pushStateChanged();
    }
  }

  return (
    <button
      type="button"
      className={`button small ${on ? 'secondary' : 'primary'}`}
      onClick={enable}
      disabled={denied || busy || on}
      title={denied ? t('blocked') : undefined}
      aria-pressed={on}
    >
      {on ? t('on') : denied ? t('blockedShort') : t('enable')}
    </button>
  );
}

export function TestNotificationButton({ onSent }: { onSent?: () => void } = {}) {
  const { t } = useTranslation('notifications');
  const [busy, setBusy] = useState(false);
  async function test() {
    setBusy(true);
    const r = await sendTestNotification();
    setBusy(false);
    if (r === 'sent') {
      toast.success(t('test.sent'));
      onSent?.();
    }
    else if (r === 'notSubscribed') toast.error(t('test.notSubscribed'));
    else if (r === 'rateLimited') toast.warning(t('test.rateLimited'));
    else toast.error(t('test.failed'));
  }
  return (
    <button type="button" className="button small secondary" onClick={test} disabled={busy}>
      {t('test.button')}
    </button>
  );
}
