import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from '../../lib/router';
import { LangLink } from '../../components/LangLink';
import { browserChecks, gatherBrowserFacts, type BrowserCheck, type BrowserCheckStatus } from '../../features/info/browserChecks';
import { DiagnosticsList } from '../../features/info/DiagnosticsList';
import { diagnosticRows } from '../../features/info/diagnostics';
import { knownAnswers } from '../../features/info/knownAnswers';
import { SharingGuide } from '../../features/info/SharingGuide';
import { TroubleshootingWizard } from '../../features/info/TroubleshootingWizard';
import { EnableNotificationsButton, NotificationToggle, TestNotificationButton } from '../../features/notifications/NotificationControls';
import { useArchivedPage } from '../../features/reminders/useArchived';
import { useReminders } from '../../features/reminders/useReminders';
import { useAuth } from '../../lib/authStore';
import { isIos, isStandalone } from '../../lib/platform';
import { usePushState } from '../../lib/push/usePushState';
import { GUIDE_STEPS, markGuideStep, toggleGuideStep, useGuideProgress, type GuideStep } from '../../shared/guideProgress';
import { DeviceStateLine } from '../../shared/device/DeviceStateLine';
import { SafetyNet } from '../../shared/device/SafetyNet';
import { StatusDot } from '../../shared/health/HealthChecklist';
import { useHealth } from '../../shared/health/useHealth';

type Step = GuideStep;
const STEPS = GUIDE_STEPS;
type Tab = 'steps' | 'troubleshooting' | 'diagnostics' | 'platforms';

export default function GuidePage() {
  const { t } = useTranslation('info');
  const location = useLocation();
  const tabFromHash = (hash: string): Tab | null =>
    hash === '#troubleshooting' ? 'troubleshooting' : hash === '#platforms' ? 'platforms' : hash === '#diagnostics' ? 'diagnostics' : null;
  const [tab, setTab] = useState<Tab>(() => tabFromHash(location.hash) ?? 'steps');
  const done = useGuideProgress();

  useEffect(() => {
    const fromHash = tabFromHash(location.hash);
    if (fromHash) setTab(fromHash);
  }, [location.hash]);

  const [touring, setTouring] = useState(false);
  const auth = useAuth();
  const push = usePushState();

  // Steps the app can see for itself are ticked on their own.
  const signedIn = auth.user !== null;
  const notificationsOn = push.permission === 'granted' && push.subscribed === true;
  useEffect(() => {
    if (isStandalone()) markGuideStep('install');
    if (signedIn) markGuideStep('signIn');
    if (notificationsOn) markGuideStep('enable');
  }, [signedIn, notificationsOn]);

  const tabs: Tab[] = ['steps', 'troubleshooting', 'diagnostics', 'platforms'];
  const completed = STEPS.filter((s) => done.includes(s)).length;

  return (
    <article className="info-page narrow guide">
      <h1>{t('guide.title')}</h1>
      {signedIn && <MarkCreatedWhenAny />}
      <p className="muted">{t('guide.intro')}</p>
      <div className="tabs" role="tablist" aria-label={t('guide.tabsLabel')}>
        {tabs.map((k) => (
          <button key={k} type="button" role="tab" className="tab" aria-selected={tab === k} onClick={() => setTab(k)}>
            {t(`guide.tabs.${k}`)}
          </button>
        ))}
      </div>

      {tab === 'steps' && (
        <section role="tabpanel" aria-label={t('guide.tabs.steps')}>
          <p>
            <progress max={STEPS.length} value={completed} aria-label={t('guide.progressLabel')} />{' '}
            {t('guide.progress', { done: completed, total: STEPS.length })}
          </p>
          {touring ? (
            <GuideTour done={done} onDone={markGuideStep} onClose={() => setTouring(false)} />
          ) : (
            <p>
              <button type="button" className="button primary" onClick={() => setTouring(true)}>
                {t('guide.tour.start')}
              </button>
            </p>
          )}
          <ol className="guide-steps">
            {STEPS.map((s) => (
              <li key={s}>
                <label className="check">
                  <input type="checkbox" checked={done.includes(s)} onChange={() => toggleGuideStep(s)} />
                  <span>
                    <strong>{t(`guide.steps.${s}.title`)}</strong> — {t(`guide.steps.${s}.text`)}
                  </span>
                </label>
              </li>
            ))}
          </ol>
          <h2>{t('guide.recurrenceTitle')}</h2>
          <ul>
            {(['daily', 'weekly', 'monthly', 'custom'] as const).map((k) => (
              <li key={k}>{t(`guide.recurrence.${k}`)}</li>
            ))}
          </ul>
          <SharingGuide />
        </section>
      )}

      {tab === 'troubleshooting' && (
        <section role="tabpanel" id="troubleshooting" aria-label={t('guide.tabs.troubleshooting')}>
          <h2>{t('guide.troubleshooting.title')}</h2>
          <Troubleshooting onTestSent={() => markGuideStep('test')} />
        </section>
      )}

      {tab === 'diagnostics' && <Diagnostics />}

      {tab === 'platforms' && (
        <section role="tabpanel" aria-label={t('guide.tabs.platforms')}>
          {(['ios', 'android', 'desktop'] as const).map((k) => (
            <section key={k}>
              <h2>{t(`guide.platforms.${k}.title`)}</h2>
              <p>{t(`guide.platforms.${k}.text`)}</p>
            </section>
          ))}
        </section>
      )}
      <p>
        <LangLink to="/faq">{t('guide.seeFaq')}</LangLink>
      </p>
    </article>
  );
}

/**
 * The interactive tour: one step at a time, with the control that does it right there (sign in,
 * enable notifications, send a test, create a reminder). Steps the app can detect tick themselves.
 */
function GuideTour({ done, onDone, onClose }: { done: readonly Step[]; onDone: (s: Step) => void; onClose: () => void }) {
  const { t } = useTranslation('info');
  const [i, setI] = useState(() => Math.max(0, STEPS.findIndex((s) => !done.includes(s))));
  const step = STEPS[i] ?? STEPS[0];
  const last = i === STEPS.length - 1;
  const isDone = done.includes(step);
  return (
    <section className="card tour" aria-labelledby="tour-title" aria-live="polite">
      <p className="muted small">{t('guide.tour.stepOf', { n: i + 1, total: STEPS.length })}</p>
      <h2 id="tour-title">
        {t(`guide.steps.${step}.title`)} {isDone && <span className="badge">{t('guide.tour.done')}</span>}
      </h2>
      <p>{t(`guide.steps.${step}.text`)}</p>
      <div className="row">
        {step === 'install' && (
          <>
            <LangLink className="button small secondary" to="/guide#platforms">
              {t('guide.tour.howToInstall')}
            </LangLink>
            {!isDone && (
              <button type="button" className="button small ghost" onClick={() => onDone('install')}>
                {t('guide.tour.markDone')}
              </button>
            )}
          </>
        )}
        {step === 'signIn' && !isDone && (
          <LangLink className="button small primary" to="/login">
            {t('guide.steps.signIn.title')}
          </LangLink>
        )}
        {step === 'enable' && <NotificationToggle />}
        {step === 'test' && <TestNotificationButton onSent={() => onDone('test')} />}
        {step === 'create' && (
          <LangLink className="button small primary" to="/reminders?new=1">
            {t('guide.steps.create.title')}
          </LangLink>
        )}
      </div>
      <div className="row between">
        <button type="button" className="button small secondary" disabled={i === 0} onClick={() => setI(i - 1)}>
          {t('guide.tour.back')}
        </button>
        {last ? (
          <button type="button" className="button small primary" onClick={onClose}>
            {t('guide.tour.finish')}
          </button>
        ) : (
          <button type="button" className="button small primary" onClick={() => setI(i + 1)}>
            {t('guide.tour.next')}
          </button>
        )}
      </div>
    </section>
  );
}

/** A signed-in person who already has reminders (made here or on another device) has done that step. */
function MarkCreatedWhenAny() {
  const { data } = useReminders();
  const archived = useArchivedPage(0);
  const any = (data?.length ?? 0) > 0 || (archived.data?.items.length ?? 0) > 0;
  useEffect(() => {
    if (any) markGuideStep('create');
  }, [any]);
  return null;
}

/**
 * The wizard, told what the app knows about this device (those questions are not asked; the
 * trail shows the answer in the device's words) and given the controls that fix it. Once
 * enabling has failed here it diagnoses: the cause and next step for this browser, another
 * browser, and the email fallback with the person's setting as the safety net.
 */
function Troubleshooting({ onTestSent }: { onTestSent: () => void }) {
  const { t } = useTranslation(['info', 'device']);
  const { facts } = useHealth();
  const push = usePushState();
  const [failed, setFailed] = useState(false);
  const rows = Object.fromEntries(diagnosticRows(facts).map((r) => [r.id, r]));
  const value = (key: string) => (key.startsWith('device:') ? t(key) : t(`guide.diagnostics.values.${key}`));
  const hint = (id: string) => {
    const row = rows[id];
    return row && row.status !== 'checking' ? t('guide.troubleshooting.thisDevice', { state: value(row.value) }) : undefined;
  };
  const ios = isIos({ userAgent: navigator.userAgent, maxTouchPoints: navigator.maxTouchPoints ?? 0 });
  const enableFailed = failed || (push.lastFailure !== null && facts.device !== 'receiving');
  const enable = <EnableNotificationsButton diagnose knownFailure={push.lastFailure} onFailed={() => setFailed(true)} />;
  return (
    <TroubleshootingWizard
      known={knownAnswers(facts, ios, isStandalone())}
      enableFailed={enableFailed}
      hints={{
        permission: hint('permission'),
        subscribed: hint('subscription'),
        serviceWorker: hint('serviceWorker'),
      }}
      actions={{
        enable,
        resubscribe: enable,
        enableFailed: <SafetyNet />,
        otherBrowser: <SafetyNet />,
        testShown: <TestNotificationButton onSent={onTestSent} />,
      }}
    />
  );
}

const BROWSER_CHECKS: readonly BrowserCheck[] = ['support', 'cookies', 'storage', 'privateMode', 'privacyBrowser'];

function Diagnostics() {
  const { t } = useTranslation('info');
  const { t: th } = useTranslation('health');
  const { facts, refresh } = useHealth();
  const [browser, setBrowser] = useState<{ checks: Record<BrowserCheck, BrowserCheckStatus>; name: string | null } | null>(null);
  const runBrowser = useCallback(() => {
    void gatherBrowserFacts().then((f) => setBrowser({ checks: browserChecks(f), name: f.privacyBrowser }));
  }, []);
  useEffect(runBrowser, [runBrowser]);
  return (
    <section role="tabpanel" aria-label={t('guide.tabs.diagnostics')}>
      <h2>{t('guide.diagnostics.title')}</h2>
      <DeviceStateLine state={facts.device} summary={facts.device !== 'checking'} />
      <DiagnosticsList facts={facts} />
      <h2>{t('guide.browser.title')}</h2>
      {browser && (
        <ul className="health-list browser-checks">
          {BROWSER_CHECKS.map((k) => (
            <li key={k}>
              <StatusDot status={browser.checks[k]} />
              <span className="health-name">{t(`guide.browser.checks.${k}`)}</span>
              <span className="health-value">{th(`status.${browser.checks[k]}`)}</span>
              {browser.checks[k] !== 'healthy' && <p className="hint">{t(`guide.browser.advice.${k}`, { name: browser.name ?? '' })}</p>}
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        className="button secondary"
        onClick={() => {
          refresh();
          runBrowser();
        }}
      >
        {t('guide.diagnosticsRefresh')}
      </button>
    </section>
  );
}
