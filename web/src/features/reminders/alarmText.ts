/**
 * A reminder's alerts and "repeat until done" in words, in the app's language: "1 day and
 * 30 min before" / 「1日前・30分前に通知」, "Repeats every 5 min, up to 3 times" /
 * 「完了まで5分ごとに最大3回」, and where it goes further: "emails you after 1 unanswered repeat" /
 * 「応答がないまま1回くり返したらメール」. The ring at the time itself is not named (it always rings).
 */
import type { TFunction } from 'i18next';
import type { Lang } from '../../lib/lang';
import type { Alert, EscalationStep, RepeatUntilDone } from '../../lib/types';

const DAY = 1440;
const WEEK = 7 * DAY;

/** An amount of time in the largest whole unit: "1 day", "2 h", "30 min" / 「1日」「2時間」「30分」. */
export function amountText(minutes: number, t: TFunction): string {
  if (minutes % WEEK === 0) return t('alarms.amount.weeks', { count: minutes / WEEK });
  if (minutes % DAY === 0) return t('alarms.amount.days', { count: minutes / DAY });
  if (minutes % 60 === 0) return t('alarms.amount.hours', { count: minutes / 60 });
  return t('alarms.amount.minutes', { count: minutes });
}

/** One alert: "1 day before" / 「1日前」. */
export function alertText(minutes: number, t: TFunction): string {
  return t('alarms.before', { amount: amountText(minutes, t) });
}

/** The alerts before the time, longest first, in one phrase; null when there are none. */
export function alertsText(alerts: readonly Alert[] | readonly number[] | null | undefined, t: TFunction, lang: Lang): string | null {
  const minutes = [...new Set((alerts ?? []).map((a) => (typeof a === 'number' ? a : a.before_minutes)).filter((m) => m > 0))].sort((a, b) => b - a);
  if (minutes.length === 0) return null;
  if (lang === 'ja') return t('alarms.summary', { list: minutes.map((m) => alertText(m, t)).join('・') });
  const list = new Intl.ListFormat('en', { style: 'long', type: 'conjunction' }).format(minutes.map((m) => amountText(m, t)));
  return t('alarms.summary', { list });
}

/** "Repeats every 5 min, up to 3 times"; null when off. */
export function nagText(repeat: RepeatUntilDone | null | undefined, t: TFunction): string | null {
  return repeat ? t('alarms.nag', { every: repeat.every_minutes, count: repeat.max_times }) : null;
}

/** One escalation step: "Emails you after 2 unanswered repeats" (a member by `nameOf`, "a member of the list" while unknown). */
export function escalationStepText(step: EscalationStep, t: TFunction, nameOf: (id: string) => string | null = () => null): string {
  const name = step.to === 'member' ? ((step.member_id && nameOf(step.member_id)) || t('escalate.someone')) : undefined;
  return t(`escalate.summary.${step.to}`, { count: step.after_times, name });
}

/** The escalation steps of repeat until done in one phrase; null when it has none (or is off). */
export function escalationText(repeat: RepeatUntilDone | null | undefined, t: TFunction, nameOf?: (id: string) => string | null): string | null {
  const steps = repeat?.escalate ?? [];
  if (steps.length === 0) return null;
  return steps.map((s) => escalationStepText(s, t, nameOf)).join(t('recurrence.label.separator'));
}
