import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../components/toast';
import { enableNotifications, PushError, sendTestNotification } from '../../lib/push/pushClient';
import { pushStateChanged, usePushState } from '../../lib/push/usePushState';
import { markGuideStep } from '../../shared/guideProgress';
import { waitForShownTest } from './shownSignal';

/** Asks permission and subscribes, saying how it went; `busy` while it runs. */
function useEnable(onEnabled?: () => void): { enable: () => Promise<void>; busy: boolean } {
  const { t } = useTranslation('notifications');
  const [busy, setBusy] = useState(false);
  async function enable() {
    setBusy(true);
    try {
      await enableNotifications();
      markGuideStep('enable');
      toast.success(t('enabled'));
      onEnabled?.();
    } catch (e) {
      const code = e instanceof PushError ? e.code : 'failed';
      toast.error(code === 'failed' ? t('enableFailed') : t(`errors.${code}`));
    } finally {
      setBusy(false);
      pushStateChanged();
    }
  }
  return { enable, busy };
}

/** The one-step enable button of the device notice (asks permission, subscribes). */
export function EnableNotificationsButton({ onEnabled }: { onEnabled?: () => void }) {
  const { t } = useTranslation('notifications');
  const { enable, busy } = useEnable(onEnabled);
  return (
    <button type="button" className="button small primary" onClick={() => void enable()} disabled={busy}>
      {t('enable')}
    </button>
  );
}

/** Enable control: disabled when permission is denied. */
export function NotificationToggle() {
  const { t } = useTranslation('notifications');
  const push = usePushState();
  const { enable, busy } = useEnable();

  if (!push.supported) {
    return (
      <span className="badge muted" title={t('unsupported')}>
        {t('unsupportedShort')}
      </span>
    );
  }
  const denied = push.permission === 'denied';
  const on = push.permission === 'granted' && push.subscribed === true;

  return (
    <button
      type="button"
      className={`button small ${on ? 'secondary' : 'primary'}`}
      onClick={() => void enable()}
      disabled={denied || busy || on}
      title={denied ? t('blocked') : undefined}
      aria-pressed={on}
    >
      {on ? t('on') : denied ? t('blockedShort') : t('enable')}
    </button>
  );
}

/**
 * The test notification. Disabled until this device is subscribed; its result is what this
 * device did: shown (the service worker said so), or not shown within 10 s, with what to check.
 */
export function TestNotificationButton({ onSent }: { onSent?: () => void } = {}) {
  const { t } = useTranslation('notifications');
  const push = usePushState();
  const [state, setState] = useState<'idle' | 'waiting' | 'shown' | 'notShown'>('idle');
  const subscribed = push.permission === 'granted' && push.subscribed === true;
  async function test() {
    setState('waiting');
    const shown = waitForShownTest();
    const r = await sendTestNotification();
    if (r !== 'sent') {
      setState('idle');
      if (r === 'notSubscribed') toast.error(t('test.notSubscribed'));
      else if (r === 'rateLimited') toast.warning(t('test.rateLimited'));
      else toast.error(t('test.failed'));
      return;
    }
    markGuideStep('test');
    onSent?.();
    setState((await shown) ? 'shown' : 'notShown');
  }
  return (
    <span className="test-notification">
      <button
        type="button"
        className="button small secondary"
        onClick={() => void test()}
        disabled={!subscribed || state === 'waiting'}
        title={subscribed ? undefined : t('test.needsSubscription')}
      >
        {t('test.button')}
      </button>
      <span role="status" aria-live="polite" className={state === 'notShown' ? 'test-result warning' : 'test-result'}>
        {state === 'waiting' ? t('test.waiting') : state === 'shown' ? t('test.shown') : state === 'notShown' ? t('test.notShown') : ''}
      </span>
    </span>
  );
}
