import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { LangLink } from '../../components/LangLink';
import { HealthChecklist } from '../health/HealthIndicator';
import { useHealth } from '../health/useHealth';

const PROGRESS_KEY = 'hibiki.guideProgress';
const STEPS = ['install', 'signIn', 'enable', 'test', 'create'] as const;
type Tab = 'steps' | 'troubleshooting' | 'diagnostics' | 'platforms';

function loadProgress(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(PROGRESS_KEY) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export default function GuidePage() {
  const { t } = useTranslation('info');
  const location = useLocation();
  const [tab, setTab] = useState<Tab>(location.hash === '#troubleshooting' ? 'troubleshooting' : 'steps');
  const [done, setDone] = useState<string[]>(loadProgress);

  useEffect(() => {
    if (location.hash === '#troubleshooting') setTab('troubleshooting');
  }, [location.hash]);

  function toggle(step: string) {
    setDone((d) => {
      const next = d.includes(step) ? d.filter((s) => s !== step) : [...d, step];
      try {
        localStorage.setItem(PROGRESS_KEY, JSON.stringify(next));
      } catch {
        /* ignore */
      }
      return next;
    });
  }

  const tabs: Tab[] = ['steps', 'troubleshooting', 'diagnostics', 'platforms'];
  const completed = STEPS.filter((s) => done.includes(s)).length;

  return (
    <article className="info-page narrow guide">
      <h1>{t('guide.title')}</h1>
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
          <ol className="guide-steps">
            {STEPS.map((s) => (
              <li key={s}>
                <label className="check">
                  <input type="checkbox" checked={done.includes(s)} onChange={() => toggle(s)} />
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
        </section>
      )}

      {tab === 'troubleshooting' && (
        <section role="tabpanel" id="troubleshooting" aria-label={t('guide.tabs.troubleshooting')}>
          <h2>{t('guide.troubleshooting.title')}</h2>
          {(['noNotification', 'blocked', 'ios', 'late'] as const).map((k) => (
            <details key={k} className="faq-item">
              <summary>{t(`guide.troubleshooting.${k}.q`)}</summary>
              <p>{t(`guide.troubleshooting.${k}.a`)}</p>
            </details>
          ))}
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

function Diagnostics() {
  const { t } = useTranslation('info');
  const { checks, refresh } = useHealth();
  return (
    <section role="tabpanel" aria-label={t('guide.tabs.diagnostics')}>
      <HealthChecklist checks={checks} />
      <button type="button" className="button secondary" onClick={refresh}>
        {t('guide.diagnosticsRefresh')}
      </button>
    </section>
  );
}
