import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isIos, isStandalone } from '../../lib/platform';
import { wasEverEnabled } from '../../lib/push/pushClient';
import { usePushState } from '../../lib/push/usePushState';
import { browserFamily, setupStep } from './deviceSetup';
import { EnableNotificationsButton, TestNotificationButton } from './NotificationControls';

/**
 * Says, until this device is subscribed, that it will not ring, and offers the one step that
 * fixes it here; after enabling, offers a test. On the dashboard and in the reminder dialog.
 */
export function DeviceSetupNotice({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation('notifications');
  const push = usePushState();
  const [justEnabled, setJustEnabled] = useState(false);
  const step = setupStep({
    pushSupported: push.supported,
    permission: push.permission,
    subscribed: push.subscribed,
    ios: isIos({ userAgent: navigator.userAgent, maxTouchPoints: navigator.maxTouchPoints ?? 0 }),
    standalone: isStandalone(),
  });

  if (step === null) {
    if (!justEnabled) return null;
    return (
      <section className="notice success" aria-live="polite">
        <p>{t('setup.enabledTry')}</p>
        <TestNotificationButton />
      </section>
    );
  }
  const body =
    step === 'unblock'
      ? t(`setup.unblock.${browserFamily(navigator.userAgent)}`)
      : step === 'subscribe' && push.lost && wasEverEnabled()
        ? t('setup.stopped')
        : t(`setup.${step}`);
  return (
    <section className={`notice warning${compact ? ' compact' : ''}`} role="status" data-testid="device-setup">
      <p className="notice-title">
        <strong>{t('setup.title')}</strong>
      </p>
      <p>{body}</p>
      {(step === 'ask' || step === 'subscribe') && <EnableNotificationsButton onEnabled={() => setJustEnabled(true)} />}
    </section>
  );
}
