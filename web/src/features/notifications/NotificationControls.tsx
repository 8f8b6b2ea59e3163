import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../components/toast';
import { enableNotifications, PushError, sendTestNotification, type PushErrorCode } from '../../lib/push/pushClient';
import { pointerContext } from '../../lib/platform';
import { pushStateChanged, usePushState } from '../../lib/push/usePushState';
import { useOnline } from '../../lib/useOnline';
import { thisBrowser } from '../../shared/device/useDeviceState';
import { markGuideStep } from '../../shared/guideProgress';
import { waitForShownTest } from './shownSignal';

/** How long enabling may take before the app says it has not finished (decisions.md "Trust from the first minute"). */
export const ENABLE_TIMEOUT_MS = 10_000;

/** Why enabling failed: the push client's answer, or no answer within ENABLE_TIMEOUT_MS. */
export type EnableFailure = PushErrorCode | 'timeout';

export type EnableStatus = { kind: 'idle' } | { kind: 'waiting' } | { kind: 'failed'; failure: EnableFailure };

/**
 * Asks permission and subscribes. While it runs the status is `waiting`; a subscribe that has
 * not finished in 10 s is `failed: timeout` (and still counts if it finishes later); a failure
 * keeps its cause, which the control shows with the next step for this browser.
 */
export function useEnable(onEnabled?: () => void, onFailed?: (failure: EnableFailure) => void): { enable: () => Promise<void>; status: EnableStatus } {
  const { t } = useTranslation('notifications');
  const [status, setStatus] = useState<EnableStatus>({ kind: 'idle' });
  const attempt = useRef(0);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  async function enable() {
    const id = ++attempt.current;
    const current = () => mounted.current && attempt.current === id;
    setStatus({ kind: 'waiting' });
    const timer = setTimeout(() => {
      if (!current()) return;
      setStatus({ kind: 'failed', failure: 'timeout' });
      onFailed?.('timeout');
    }, ENABLE_TIMEOUT_MS);
    try {
      await enableNotifications();
      markGuideStep('enable');
      if (!current()) return;
      setStatus({ kind: 'idle' });
      toast.success(t('enabled'));
      onEnabled?.();
    } catch (e) {
      if (!current()) return;
      const failure = e instanceof PushError ? e.code : 'failed';
      setStatus({ kind: 'failed', failure });
      onFailed?.(failure);
    } finally {
      clearTimeout(timer);
      pushStateChanged();
    }
  }
  return { enable, status };
}

/** The cause of a failed enable and the next step for this browser, in words. */
export function EnableFailureMessage({ failure }: { failure: EnableFailure }) {
  const { t } = useTranslation(['notifications', 'device']);
  const family = thisBrowser();
  const next =
    failure === 'pushService' || failure === 'timeout'
      ? t(`next.pushService.${family}`)
      : failure === 'blocked'
        ? t(`device:fix.unblock.${family}`, { context: pointerContext() })
        : failure === 'unsupported'
          ? t('device:fix.unsupported')
          : t(`next.${failure}`);
  return (
    <div className="enable-status error" role="alert" data-testid="enable-failure" data-failure={failure}>
      <p>
        <strong>{t(`errors.${failure}`)}</strong>
      </p>
      <p>{next}</p>
    </div>
  );
}

/** Why a control cannot be pressed now (offline, blocked), in words beside it. */
function DisabledReason({ id, text }: { id: string; text: string }) {
  return (
    <p id={id} className="test-result muted small">
      {text}
    </p>
  );
}

/** Spinner and words while enabling runs; the cause and next step when it failed. */
function EnableStatusLine({ status }: { status: EnableStatus }) {
  const { t } = useTranslation('notifications');
  if (status.kind === 'waiting') {
    return (
      <p className="enable-status" role="status" aria-live="polite">
        <span className="spinner inline" aria-hidden="true" /> {t('enabling')}
      </p>
    );
  }
  if (status.kind === 'failed') return <EnableFailureMessage failure={status.failure} />;
  return null;
}

/**
 * The one-step enable button (the device notice, Settings, the guide). With `diagnose`, a failure
 * is answered with its diagnosis and not with the same button again (the guide's wizard).
 */
export function EnableNotificationsButton({
  onEnabled,
  onFailed,
  knownFailure = null,
  diagnose = false,
}: {
  onEnabled?: () => void;
  onFailed?: (failure: EnableFailure) => void;
  /** enabling already failed here (the start-up check), for this reason */
  knownFailure?: EnableFailure | null;
  diagnose?: boolean;
}) {
  const { t } = useTranslation('notifications');
  const { enable, status } = useEnable(onEnabled, onFailed);
  const online = useOnline();
  const reasonId = useId();
  const shown: EnableStatus = status.kind === 'idle' && knownFailure ? { kind: 'failed', failure: knownFailure } : status;
  const hideButton = diagnose && shown.kind === 'failed';
  return (
    <div className="enable-control">
      {!hideButton && (
        <button
          type="button"
          className="button small primary"
          onClick={() => void enable()}
          disabled={status.kind === 'waiting' || !online}
          aria-describedby={online ? undefined : reasonId}
        >
          {t('enable')}
        </button>
      )}
      {!online && !hideButton && <DisabledReason id={reasonId} text={t('offline.enable')} />}
      <EnableStatusLine status={shown} />
    </div>
  );
}

/** Enable control: disabled when permission is denied. */
export function NotificationToggle() {
  const { t } = useTranslation('notifications');
  const push = usePushState();
  const { enable, status } = useEnable();
  const online = useOnline();
  const reasonId = useId();

  if (!push.supported) {
    return (
      <span className="badge muted" title={t('unsupported')}>
        {t('unsupportedShort')}
      </span>
    );
  }
  const denied = push.permission === 'denied';
  const on = push.permission === 'granted' && push.subscribed === true;
  // Why it cannot be pressed, in words beside it (not only in a tooltip).
  const reason = on ? null : denied ? t('blocked') : online ? null : t('offline.enable');

  return (
    <div className="enable-control">
      <button
        type="button"
        className={`button small ${on ? 'secondary' : 'primary'}`}
        onClick={() => void enable()}
        disabled={denied || status.kind === 'waiting' || on || !online}
        aria-describedby={reason ? reasonId : undefined}
        aria-pressed={on}
      >
        {on ? t('on') : denied ? t('blockedShort') : t('enable')}
      </button>
      {reason && <DisabledReason id={reasonId} text={reason} />}
      {!on && <EnableStatusLine status={status} />}
    </div>
  );
}

/**
 * The test notification. Disabled until this device is subscribed (and then says so in words);
 * its result is what this device did: shown (the service worker said so), or not shown within
 * 10 s, with what to check.
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
  const online = useOnline();
  const resultId = useId();
  // Why it cannot be pressed, in words beside it (not only in a tooltip).
  const reason = push.subscribed === undefined ? t('test.checking') : !subscribed ? t('test.needsSubscription') : online ? '' : t('test.offline');
  return (
    <span className="test-notification">
      <button
        type="button"
        className="button small secondary"
        onClick={() => void test()}
        disabled={!subscribed || !online || state === 'waiting'}
        aria-describedby={resultId}
      >
        {t('test.button')}
      </button>
      <span id={resultId} role="status" aria-live="polite" className={state === 'notShown' ? 'test-result warning' : reason ? 'test-result muted small' : 'test-result'}>
        {state === 'waiting' ? t('test.waiting') : state === 'shown' ? t('test.shown') : state === 'notShown' ? t('test.notShown') : reason}
      </span>
    </span>
  );
}
