import { useTranslation } from 'react-i18next';
import type { Recurrence } from '../../lib/types';
import { useLang } from '../../lib/useLang';
import { recurrenceText } from './recurrenceText';

export function useRecurrenceLabel() {
  const { t } = useTranslation('reminders');
  const lang = useLang();
  return (rec: Recurrence | undefined): string => recurrenceText(rec, t, lang);
}
