import { useTranslation } from 'react-i18next';
import type { Recurrence } from '../../lib/types';

export function useRecurrenceLabel() {
  const { t } = useTranslation('reminders');
  return (rec: Recurrence | undefined): string => {
    const r = rec ?? { kind: 'none' };
    if (r.kind === 'hourly') return t('recurrence.everyNHours', { n: r.interval_hours });
    if (r.kind === 'custom') return t('recurrence.customDays', { days: r.days.map((d) => t(`weekdays.${d}`)).join(t('recurrence.daySeparator')) });
    return t(`recurrence.${r.kind}`);
  };
}
