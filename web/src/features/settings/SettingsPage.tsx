import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/LangLink';
import { Spinner } from '../../components/Spinner';
import { toast } from '../../components/toast';
import { api, isApiError } from '../../lib/api';
import { errorSummary, fieldErrorsByPath } from '../../lib/apiErrors';
import { preventImeSubmit } from '../../lib/ime';
import { useOnline } from '../../lib/useOnline';
import { EMAIL_FALLBACK_CHOICES, SNOOZE_PRESETS, type Settings } from '../../lib/types';
import { TimeZoneSelect } from '../../shared/TimeZoneSelect';
import { useSettings } from '../../shared/useSettings';
import { CalendarFeed } from './CalendarFeed';
import { DailyBriefSection } from './DailyBriefSection';
import { QuietHoursSection } from './QuietHoursSection';

/**
 * `devices`, `channels` and `sessions`: the lists of this account's devices, of its other
 * notification channels (ntfy, webhooks, Telegram, LINE) and of its sessions; `tools`: its API
 * tokens, export and import; between the form and the danger zone (the app passes them in).
 */
export default function SettingsPage({
  devices,
  channels,
  sessions,
  tools,
}: {
  devices: ReactNode;
  channels?: ReactNode;
  sessions?: ReactNode;
  tools?: ReactNode;
}) {
  const { t } = useTranslation(['settings', 'errors']);
  const { data, error, isLoading, mutate } = useSettings({ retry: true });
  const [form, setForm] = useState<Settings | null>(null);
  const [busy, setBusy] = useState(false);
  // The server's refusals by field path (`quiet_hours.end`), shown at those fields until they change.
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  // Settings are saved straight to the server (nothing queues them): offline, saving waits.
  const online = useOnline();

  useEffect(() => {
    if (data) setForm(data);
  }, [data]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!form || !online) return;
    setBusy(true);
    setFieldErrors({});
    try {
      const saved = await api.settings.update(form);
      await mutate(saved ?? form, { revalidate: !saved });
      toast.success(t('saved'));
    } catch (err) {
      // Which setting the server refused and why, in the reader's language (and at the field).
      if (isApiError(err, 'VALIDATION_FAILED')) setFieldErrors(fieldErrorsByPath(t, err));
      toast.error(isApiError(err, 'VALIDATION_FAILED') ? errorSummary(t, err) : t('saveFailed'));
    } finally {
      setBusy(false);
    }
  }

  const set = <K extends keyof Settings>(k: K, v: Settings[K]) => {
    setForm((f) => (f ? { ...f, [k]: v } : f));
    // A refusal goes once its setting changes.
    setFieldErrors((errs) => {
      const left = Object.entries(errs).filter(([path]) => path !== k && !path.startsWith(`${k}.`));
      return left.length === Object.keys(errs).length ? errs : Object.fromEntries(left);
    });
  };

  return (
    <div className="settings-page narrow">
      <h1>{t('title')}</h1>
      {!form && !online ? (
        <p className="notice" role="status">
          {t('offline.loadLater')}
        </p>
      ) : isLoading && !form ? (
        <Spinner />
      ) : error && !form ? (
        <p className="field-error" role="alert">
          {t('loadFailed')}
        </p>
      ) : form ? (
        <form className="card" onSubmit={submit} onKeyDown={preventImeSubmit}>
          <label htmlFor="settings-tz">{t('timezone')}</label>
          <TimeZoneSelect id="settings-tz" value={form.timezone} onChange={(z) => set('timezone', z)} />
          <p className="hint">{t('timezoneHint')}</p>

          <label htmlFor="settings-lang">{t('language')}</label>
          <select id="settings-lang" value={form.language} onChange={(e) => set('language', e.target.value as Settings['language'])}>
            <option value="ja">日本語</option>
            <option value="en">English</option>
          </select>
          <p className="hint">{t('languageHint')}</p>

          <label htmlFor="settings-snooze">{t('defaultSnooze')}</label>
          <select
            id="settings-snooze"
            value={form.default_snooze_minutes}
            onChange={(e) => set('default_snooze_minutes', Number(e.target.value))}
          >
            {SNOOZE_PRESETS.map((m) => (
              <option key={m} value={m}>
                {t('minutes', { n: m })}
              </option>
            ))}
          </select>

          <div className="grid-2">
            <div>
              <label htmlFor="settings-morning">{t('morningTime')}</label>
              <input
                id="settings-morning"
                type="time"
                required
                value={form.morning_time ?? '08:00'}
                onChange={(e) => set('morning_time', e.target.value.slice(0, 5))}
                aria-describedby="settings-snooze-times-hint"
              />
            </div>
            <div>
              <label htmlFor="settings-evening">{t('eveningTime')}</label>
              <input
                id="settings-evening"
                type="time"
                required
                value={form.evening_time ?? '18:00'}
                onChange={(e) => set('evening_time', e.target.value.slice(0, 5))}
                aria-describedby="settings-snooze-times-hint"
              />
            </div>
          </div>
          <p id="settings-snooze-times-hint" className="hint">
            {t('snoozeTimesHint')}
          </p>

          <label className="check">
            <input type="checkbox" checked={form.speak_titles} onChange={(e) => set('speak_titles', e.target.checked)} />
            <span>{t('speakTitles')}</span>
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={form.hide_notification_content}
              onChange={(e) => set('hide_notification_content', e.target.checked)}
            />
            <span>{t('hideContent')}</span>
          </label>
          <p className="hint">{t('hideContentHint')}</p>

          <label htmlFor="settings-fallback">{t('emailFallback')}</label>
          <select
            id="settings-fallback"
            value={form.email_fallback_minutes ?? 'off'}
            onChange={(e) => set('email_fallback_minutes', e.target.value === 'off' ? null : Number(e.target.value))}
          >
            <option value="off">{t('emailFallbackOff')}</option>
            {EMAIL_FALLBACK_CHOICES.map((m) => (
              <option key={m} value={m}>
                {t('emailFallbackAfter', { n: m })}
              </option>
            ))}
          </select>
          <p className="hint">{t('emailFallbackHint')}</p>

          <QuietHoursSection value={form.quiet_hours} onChange={(v) => set('quiet_hours', v)} errors={fieldErrors} />
          <DailyBriefSection value={form.daily_brief} onChange={(v) => set('daily_brief', v)} errors={fieldErrors} />

          <button type="submit" className="button primary" disabled={busy || !online} aria-describedby={online ? undefined : 'settings-offline'}>
            {busy ? t('saving') : t('save')}
          </button>
          {!online && (
            <p id="settings-offline" className="hint">
              {t('offline.save')}
            </p>
          )}
        </form>
      ) : null}
      <CalendarFeed />
      {devices}
      {channels}
      {sessions}
      {tools}
      <section className="card danger-zone">
        <h2>{t('dangerZone')}</h2>
        <LangLink to="/settings/delete-account" className="button danger">
          {t('deleteAccount')}
        </LangLink>
      </section>
    </div>
  );
}
