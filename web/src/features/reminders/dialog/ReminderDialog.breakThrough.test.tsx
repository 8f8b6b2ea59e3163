/**
 * "Ring during quiet hours" (`break_through`): a toggle in the reminder dialog, beside the alerts,
 * with a line saying what it does; sent when on (left out when off, the server's default); an
 * edit sends it only when it changed; the details say so when it is on.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { MemoryRouter } from '../../../lib/router';
import { SWRConfig } from 'swr';
import { describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../i18n';
import type { Lang } from '../../../lib/lang';
import type { Reminder, ReminderInput } from '../../../lib/types';
import { mockFetch, ok } from '../../../test/renderApp';
import { tr } from '../../../test/texts';
import { ReminderDetails } from '../details/ReminderDetails';
import { ReminderDialog } from './ReminderDialog';
import { changedFields, emptyForm, formFromReminder, formToInput, type ReminderForm } from '../reminderLogic';

const AT = '2030-01-01T00:00:00Z';

function reminder(extra: Partial<Reminder> = {}): Reminder {
  return {
    id: 'r1', user_id: 'u1', title: 'Medicine', send_at: AT, scheduled_at: AT, timezone: 'Asia/Tokyo', recurrence: { kind: 'none' },
    alerts: [{ before_minutes: 0 }], overdue: false, is_active: true, is_archived: false, status: 'pending', list_id: 'list-1',
    assignees: [], rotate: false, break_through: false, created_by: 'u1', created_at: AT, updated_at: AT, ...extra,
  };
}

async function language(lang: Lang) {
  const i18n = initI18n(lang);
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces(['reminders', 'errors']);
}

async function renderDialog(lang: Lang, initial: ReminderForm, editing: Reminder | null = null) {
  await language(lang);
  mockFetch({ 'POST /api/reminders/preview': () => ok({ occurrences: [AT] }) });
  const onSave = vi.fn(async (_input: ReminderInput) => {});
  render(
    <MemoryRouter>
      <Suspense fallback={null}>
        <ReminderDialog open initial={initial} editing={editing} onClose={() => {}} onSave={onSave} deviceNotice={null} />
      </Suspense>
    </MemoryRouter>,
  );
  await screen.findByRole('dialog');
  return onSave;
}

describe('break_through in the form', () => {
  it('is off for a new reminder and left out of its input; on, it is sent', () => {
    const form = emptyForm('Asia/Tokyo', Date.parse('2029-12-31T00:00:00Z'));
    expect(form.breakThrough).toBe(false);
    expect(formToInput({ ...form, title: 'x' })).not.toHaveProperty('break_through');
    expect(formToInput({ ...form, title: 'x', breakThrough: true })).toMatchObject({ break_through: true });
  });

  it('reads a stored reminder, and an edit sends it only when it changed (false when turned off)', () => {
    const on = formFromReminder(reminder({ break_through: true }), 'Asia/Tokyo');
    expect(on.breakThrough).toBe(true);
    expect(formFromReminder(reminder(), 'Asia/Tokyo').breakThrough).toBe(false);
    const before = formToInput(on);
    expect(changedFields(before, formToInput({ ...on, title: 'Pills' }))).toEqual({ title: 'Pills' });
    expect(changedFields(before, formToInput({ ...on, breakThrough: false }))).toEqual({ break_through: false });
    const off = formToInput(formFromReminder(reminder(), 'Asia/Tokyo'));
    expect(changedFields(off, { ...off, break_through: true })).toEqual({ break_through: true });
  });
});

describe('the dialog sends break_through', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: the toggle says what it does; checked, Save sends break_through: true`, async () => {
      const user = userEvent.setup();
      const onSave = await renderDialog(lang, emptyForm('Asia/Tokyo', Date.now()));
      const toggle = screen.getByRole('checkbox', { name: tr(lang, 'reminders:breakThrough.label') });
      expect(toggle).not.toBeChecked();
      expect(toggle).toHaveAccessibleDescription(tr(lang, 'reminders:breakThrough.hint'));
      await user.type(screen.getByLabelText(tr(lang, 'reminders:fields.title')), 'Medicine');
      await user.click(toggle);
      await user.click(screen.getByRole('button', { name: tr(lang, 'reminders:dialog.save') }));
      await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
      expect(onSave.mock.calls[0]![0]).toMatchObject({ title: 'Medicine', break_through: true });
    });
  }

  it('en: left off, the input has no break_through (the server\'s default, false)', async () => {
    const user = userEvent.setup();
    const onSave = await renderDialog('en', emptyForm('Asia/Tokyo', Date.now()));
    await user.type(screen.getByLabelText(tr('en', 'reminders:fields.title')), 'Call');
    await user.click(screen.getByRole('button', { name: tr('en', 'reminders:dialog.save') }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0]).not.toHaveProperty('break_through');
  });

  it('en: editing one that rings during quiet hours shows the toggle on; turned off, the edit sends break_through: false', async () => {
    const r = reminder({ break_through: true });
    const onSave = await renderDialog('en', formFromReminder(r, 'Asia/Tokyo'), r);
    const toggle = screen.getByRole('checkbox', { name: tr('en', 'reminders:breakThrough.label') });
    expect(toggle).toBeChecked();
    fireEvent.click(toggle);
    fireEvent.click(screen.getByRole('button', { name: tr('en', 'reminders:dialog.save') }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    // the editor sends changedFields of this against the form it opened with: break_through: false
    expect(changedFields(formToInput(formFromReminder(r, 'Asia/Tokyo')), onSave.mock.calls[0]![0])).toEqual({ break_through: false });
  });
});

describe('the details say it rings during quiet hours', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: on: said among the notifications; off: not`, async () => {
      await language(lang);
      mockFetch({
        'GET /api/reminders/r1/occurrences': () => ok({ occurrences: [AT] }),
        'GET /api/reminders/r1/logs': () => ok([]),
      });
      const clock = { timezone: 'Asia/Tokyo', morningTime: '08:00', eveningTime: '18:00' };
      const view = (r: Reminder) => (
        <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
          <MemoryRouter>
            <Suspense fallback={null}>
              <ReminderDetails reminder={r} snoozeMinutes={10} snoozeClock={clock} />
            </Suspense>
          </MemoryRouter>
        </SWRConfig>
      );
      const { rerender } = render(view(reminder({ break_through: true })));
      expect(await screen.findByText(tr(lang, 'reminders:breakThrough.on'))).toBeVisible();
      rerender(view(reminder({ break_through: false })));
      await waitFor(() => expect(screen.queryByText(tr(lang, 'reminders:breakThrough.on'))).toBeNull());
    });
  }
});
