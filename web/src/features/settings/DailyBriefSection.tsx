import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BRIEF_VIAS, type DailyBrief } from '../../lib/types';
import { useChannels, type Channel } from '../../shared/channels';
import { fieldErrorProps } from './fieldErrors';

/** What the daily brief starts as when turned on. */
export const DEFAULT_DAILY_BRIEF: DailyBrief = { time: '07:00', via: 'push' };

/**
 * Settings → the daily brief (decisions.md "Reach and rhythm"): off, or at a time by
 * notification, email or one of the person's active channels (by its name and kind); one message
 * listing the rest of the day's reminders, the overdue and the snoozed ones, none on an empty day.
 * A brief already going to a channel keeps it even when that channel is failing, not linked yet
 * or not (yet) known here (offered as it is). `errors`: the server's refusals by field path.
 */
export function DailyBriefSection({
  value,
  onChange,
  errors,
}: {
  value: DailyBrief | null | undefined;
  onChange: (v: DailyBrief | null) => void;
  errors: Readonly<Record<string, string>>;
}) {
  const { t } = useTranslation('settings');
  const ids = useId();
  const channels = useChannels();
  const [last, setLast] = useState<DailyBrief>(value ?? DEFAULT_DAILY_BRIEF);
  const { error, described, describedBy } = fieldErrorProps(errors, ids);
  const set = (next: DailyBrief) => {
    setLast(next);
    onChange(next);
  };
  const chosen = value && !(BRIEF_VIAS as readonly string[]).includes(value.via) ? value.via : null;
  const named = (c: Channel) =>
    c.status === 'active'
      ? t('brief.viaChannelNamed', { name: c.label, kind: t(`channels.kind.${c.kind}`) })
      : t('brief.viaChannelStatus', { name: c.label, kind: t(`channels.kind.${c.kind}`), status: t(`channels.status.${c.status}`) });
  const list = channels.data ?? [];
  const offered = list.filter((c) => c.status === 'active' || c.id === chosen);
  const vias = [
    ...BRIEF_VIAS.map((via) => ({ via, text: t(via === 'push' ? 'brief.viaPush' : 'brief.viaEmail') })),
    ...offered.map((c) => ({ via: c.id, text: named(c) })),
    // a channel this page does not know (the list did not load): as it is set
    ...(chosen && !offered.some((c) => c.id === chosen) ? [{ via: chosen, text: t('brief.viaChannel') }] : []),
  ];

  return (
    <fieldset className="settings-group" aria-describedby={`${ids}-intro`}>
      <legend>{t('brief.title')}</legend>
      <p id={`${ids}-intro`} className="hint">
        {t('brief.intro')}
      </p>
      <label className="check">
        <input type="checkbox" role="switch" checked={!!value} onChange={(e) => onChange(e.target.checked ? last : null)} {...described('daily_brief')} />
        <span>{t('brief.on')}</span>
      </label>
      {error('daily_brief')}
      {value && (
        <div className="grid-2">
          <div>
            <label htmlFor={`${ids}-time`}>{t('brief.time')}</label>
            <input
              id={`${ids}-time`}
              type="time"
              required
              value={value.time}
              onChange={(e) => set({ ...value, time: e.target.value.slice(0, 5) })}
              {...described('daily_brief.time')}
            />
            {error('daily_brief.time')}
          </div>
          <fieldset className="brief-via" {...describedBy('daily_brief.via')}>
            <legend>{t('brief.via')}</legend>
            {vias.map(({ via, text }) => (
              <label key={via} className="check">
                <input type="radio" name={`${ids}-via`} value={via} checked={value.via === via} onChange={() => set({ ...value, via })} />
                <span>{text}</span>
              </label>
            ))}
            {channels.data && offered.length === 0 && <p className="hint">{t('brief.channelsHint')}</p>}
            {error('daily_brief.via')}
          </fieldset>
        </div>
      )}
    </fieldset>
  );
}
