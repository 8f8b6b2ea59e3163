import { useTranslation } from 'react-i18next';
import type { Recurrence } from '../../../lib/types';
import { useDates } from '../../../shared/useDates';
import { type Anchor, recurrenceText } from '../recurrenceText';

export function useRecurrenceLabel() {
  const { t } = useTranslation('reminders');
  const { lang, now, userZone } = useDates();
  return (rec: Recurrence | undefined, anchor?: Anchor): string => recurrenceText(rec, t, lang, now, userZone, anchor);
}
