import { describe, expect, it } from 'vitest';
import type { QuickAddPrefill } from '../../../shared/navState';
import { formFromQuickAdd, withQuickAddRecurrence } from './quickAddForm';
import { formToInput } from '../reminderLogic';

const NOW = Date.parse('2026-11-25T01:00:00Z');
const prefill: QuickAddPrefill = {
  title: '資源ごみ',
  send_at: '2026-12-08T10:00:00+09:00',
  timezone: 'Asia/Tokyo',
  recurrence: { kind: 'monthly', week: 2, weekday: 'tue' },
};

describe('quick add into the create form', () => {
  it('fills title, date, time, zone and the repeat kind', () => {
    const f = formFromQuickAdd(prefill, NOW);
    expect(f).toMatchObject({ title: '資源ごみ', date: '2026-12-08', time: '10:00:00', timezone: 'Asia/Tokyo', kind: 'monthly' });
    expect(formFromQuickAdd({ ...prefill, recurrence: { kind: 'custom', days: ['mon', 'wed'] } }, NOW).days).toEqual(['mon', 'wed']);
    expect(formFromQuickAdd({ ...prefill, recurrence: { kind: 'hourly', interval_hours: 3 } }, NOW).intervalHours).toBe(3);
  });
  it('keeps the default time when the phrase named none', () => {
    const f = formFromQuickAdd({ ...prefill, send_at: null }, NOW);
    expect(f).toMatchObject({ date: '2026-11-25', time: '10:05:00' });
  });
  it('saves the parsed recurrence unless the repeat was changed in the dialog', () => {
    const opened = formFromQuickAdd(prefill, NOW);
    expect(withQuickAddRecurrence(formToInput({ ...opened, title: 'x' }), opened, prefill).recurrence).toEqual(prefill.recurrence);
    expect(withQuickAddRecurrence(formToInput({ ...opened, kind: 'daily' }), opened, prefill).recurrence).toEqual({ kind: 'daily' });
  });
});
