import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isIos, isStandalone, pointerContext } from '../../lib/platform';
import { DeviceStateLine } from '../../shared/device/DeviceStateLine';
import { thisBrowser, useDeviceState } from '../../shared/device/useDeviceState';
import { setupStep } from './deviceSetup';
import { EnableNotificationsButton, TestNotificationButton } from './NotificationControls';

/**
 * Says, until this device receives, that it will not ring, in the device's words (its state and
 * what that means), and offers the one step that fixes it here; after enabling, offers a test.
 * On the dashboard, the reminders page and in the reminder dialog.
 */
export function DeviceSetupNotice({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation('device');
  const { state, push } = useDeviceState();
  const [justEnabled, setJustEnabled] = useState(false);
  const step = setupStep({
    state,
    permission: push.permission,
    ios: isIos({ userAgent: navigator.userAgent, maxTouchPoints: navigator.maxTouchPoints ?? 0 }),
    standalone: isStandalone(),
  });

  if (step === null) {
    if (!justEnabled) return null;
    return (
      <section className="notice success" aria-live="polite">
        <p>{t('notice.enabledTry')}</p>
        <TestNotificationButton />
      </section>
    );
  }
  // "tap" on touch screens, "click" elsewhere
  const context = pointerContext();
  const fix = step === 'unblock' ? t(`fix.unblock.${thisBrowser()}`, { context }) : t(`fix.${step}`, { context });
  return (
    <section className={`notice warning${compact ? ' compact' : ''}`} role="status" data-testid="device-setup">
      <p className="notice-title">
        <strong>{t('notice.title')}</strong>
      </p>
      <DeviceStateLine state={state} />
      {state !== 'checking' && <p>{t(`state.${state}.summary`)}</p>}
      <p>{fix}</p>
      {(step === 'ask' || step === 'subscribe' || step === 'resubscribe') && (
        <EnableNotificationsButton onEnabled={() => setJustEnabled(true)} knownFailure={push.lastFailure} />
      )}
    </section>
  );
}
