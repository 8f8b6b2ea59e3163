import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TimeZoneSelect } from '../../../shared/TimeZoneSelect';
import { DESCRIPTION_MAX, TITLE_MAX, type FormErrors, type ReminderForm } from '../reminderLogic';

/** The reminder form's title, description, list (`listField`, when there is a choice), date, time (to the second) and time zone. */
export function BasicFields({
  ids,
  form,
  set,
  err,
  described,
  listField,
}: {
  ids: string;
  listField?: ReactNode;
  form: ReminderForm;
  set: <K extends keyof ReminderForm>(k: K, v: ReminderForm[K]) => void;
  err: (k: keyof FormErrors) => ReactNode;
  described: (k: keyof FormErrors) => object;
}) {
  const { t } = useTranslation('reminders');
  return (
    <>
      <label htmlFor={`${ids}-title`}>{t('fields.title')}</label>
      <input
        id={`${ids}-title`}
        value={form.title}
        maxLength={TITLE_MAX}
        onChange={(e) => set('title', e.target.value)}
        placeholder={t('fields.titlePlaceholder')}
        required
        {...described('title')}
      />
      {err('title')}

      <label htmlFor={`${ids}-desc`}>{t('fields.description')}</label>
      <textarea
        id={`${ids}-desc`}
        value={form.description}
        maxLength={DESCRIPTION_MAX}
        rows={3}
        onChange={(e) => set('description', e.target.value)}
        {...described('description')}
      />
      {err('description')}

      {listField}

      <div className="grid-2">
        <div>
          <label htmlFor={`${ids}-date`}>{t('fields.date')}</label>
          <input id={`${ids}-date`} type="date" value={form.date} onChange={(e) => set('date', e.target.value)} required {...described('date')} />
          {err('date')}
        </div>
        <div>
          <label htmlFor={`${ids}-time`}>{t('fields.time')}</label>
          <input
            id={`${ids}-time`}
            type="time"
            step={1}
            value={form.time}
            onChange={(e) => set('time', e.target.value.length === 5 ? `${e.target.value}:00` : e.target.value)}
            required
            {...described('time')}
          />
          {err('time')}
        </div>
      </div>

      <label htmlFor={`${ids}-tz`}>{t('fields.timezone')}</label>
      <TimeZoneSelect id={`${ids}-tz`} value={form.timezone} onChange={(z) => set('timezone', z)} {...described('timezone')} />
      {err('timezone')}
    </>
  );
}
