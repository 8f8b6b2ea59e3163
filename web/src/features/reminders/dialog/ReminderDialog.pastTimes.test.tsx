/**
 * Past times in the create/edit dialog: an alert whose time has already passed is flagged by its
 * chip (and while the alerts are folded), saving stays allowed; the preview never lists a past
 * instant: it leaves past ones out and says so, or says that the time has passed.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { MemoryRouter } from '../../../lib/router';
import { SWRConfig } from 'swr';
import { describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../i18n';
import type { Lang } from '../../../lib/lang';
import type { Reminder } from '../../../lib/types';
import { utcToZoned } from '../../../lib/zonedTime';
import { mockFetch, ok } from '../../../test/renderApp';
import { tr } from '../../../test/texts';
import { alertText } from '../alarmText';
import { ReminderDialog } from './ReminderDialog';
import { emptyForm, formFromReminder, type ReminderForm } from '../reminderLogic';

const TZ = 'Asia/Tokyo';
const MIN = 60_000;
const DAY = 1440 * MIN;

async function renderDialog(lang: Lang, initial: ReminderForm, opts: { editing?: Reminder | null; occurrences?: (count: number) => string[] } = {}) {
  const i18n = initI18n(lang);
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces('reminders');
  const counts: number[] = [];
  mockFetch({
    'POST /api/reminders/preview': (url) => {
      const count = Number(new URL(url, 'http://x').searchParams.get('count'));
      counts.push(count);
      return ok({ occurrences: opts.occurrences ? opts.occurrences(count) : [new Date(Date.now() + DAY).toISOString()] });
    },
  });
  const onSave = vi.fn(async () => {});
  render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter initialEntries={[lang === 'ja' ? '/reminders' : '/en/reminders']}>
        <Suspense fallback={null}>
          <ReminderDialog open initial={initial} editing={opts.editing ?? null} onClose={() => {}} onSave={onSave} deviceNotice={null} />
        </Suspense>
      </MemoryRouter>
    </SWRConfig>,
  );
  const dialog = await screen.findByRole('dialog');
  return { onSave, counts, dialog, t: i18n.getFixedT(lang, 'reminders') };
}

/** A one-time form `minutes` from now, with these alerts. */
function formIn(minutes: number, alerts: number[], extra: Partial<ReminderForm> = {}): ReminderForm {
  return { ...emptyForm(TZ, Date.now()), title: 'Dentist', ...utcToZoned(Date.now() + minutes * MIN, TZ), alerts, ...extra };
}

describe('past alert times', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: in 30 min, the 1-hour alert is flagged (folded and by its chip), the 10-minute one is not; saving is allowed`, async () => {
      const user = userEvent.setup();
      const { onSave, dialog, t } = await renderDialog(lang, formIn(30, [60, 10]));
      const hour = alertText(60, t);
      const ten = alertText(10, t);
      const passedHour = tr(lang, 'reminders:alarms.passed', { alert: hour });
      // folded: said under the summary
      expect(await within(dialog).findByText(passedHour)).toBeInTheDocument();
      expect(within(dialog).queryByText(tr(lang, 'reminders:alarms.passed', { alert: ten }))).toBeNull();
      // open: by the chip, whose remove button it describes
      await user.click(within(dialog).getByRole('button', { name: tr(lang, 'reminders:alarms.disclosure') }));
      const remove = within(dialog).getByRole('button', { name: tr(lang, 'reminders:alarms.remove', { alert: hour }) });
      expect(remove.closest('li')).toHaveClass('passed');
      expect(remove).toHaveAccessibleDescription(passedHour);
      const removeTen = within(dialog).getByRole('button', { name: tr(lang, 'reminders:alarms.remove', { alert: ten }) });
      expect(removeTen.closest('li')).not.toHaveClass('passed');
      expect(within(dialog).getAllByText(passedHour)).toHaveLength(1);
      // the warning does not stop saving
      await user.click(within(dialog).getByRole('button', { name: tr(lang, 'reminders:dialog.save') }));
      await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    });
  }

  it('en: removing the passed alert removes its warning', async () => {
    const user = userEvent.setup();
    const { dialog, t } = await renderDialog('en', formIn(30, [60]));
    await user.click(within(dialog).getByRole('button', { name: 'Alerts and repeat until done' }));
    const hour = alertText(60, t);
    expect(within(dialog).getByText(tr('en', 'reminders:alarms.passed', { alert: hour }))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: tr('en', 'reminders:alarms.remove', { alert: hour }) }));
    expect(within(dialog).queryByText(tr('en', 'reminders:alarms.passed', { alert: hour }))).toBeNull();
  });

  it('ja: repeating, the first time in 30 min: the 1-day alert misses only the first time', async () => {
    const { dialog } = await renderDialog('ja', formIn(30, [1440], { kind: 'daily' }));
    expect(await within(dialog).findByText(/^1日前：初回（.+）の分はすでに過ぎているため、次回から鳴ります。$/)).toBeInTheDocument();
  });
});

describe('the preview never lists a past instant', () => {
  it('en: editing an overdue one-time reminder: its time is not listed; the preview says it has passed', async () => {
    const past = new Date(Date.now() - 2 * DAY).toISOString().replace(/\.\d+Z$/, 'Z');
    const r = {
      id: 'r1', user_id: 'u1', title: 'Dentist', send_at: past, scheduled_at: past, timezone: TZ, recurrence: { kind: 'none' }, alerts: [{ before_minutes: 0 }],
      overdue: true, is_active: true, is_archived: false, status: 'pending', created_at: past, updated_at: past,
    } as Reminder;
    const { dialog, counts } = await renderDialog('en', formFromReminder(r, TZ), { editing: r, occurrences: () => [past] });
    const preview = within(dialog).getByRole('region', { name: 'Next notifications' });
    await waitFor(() => expect(preview).toHaveTextContent(tr('en', 'reminders:dialog.previewPassedOnce')));
    expect(within(preview).queryAllByRole('listitem')).toHaveLength(0);
    // the start is past: as many as the server lists were asked for, to reach the times to come
    expect(counts).toEqual([50]);
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: daily from 3 days ago: only the next 5 to come, and a note that past ones are left out`, async () => {
      const start = Date.now() - 3 * DAY + 10 * MIN;
      const form = formIn(0, [], { kind: 'daily', ...utcToZoned(start, TZ) });
      const list = (count: number) => Array.from({ length: count }, (_, i) => new Date(Math.ceil(start / 1000) * 1000 + i * DAY).toISOString());
      const { dialog, counts } = await renderDialog(lang, form, { occurrences: list });
      const preview = within(dialog).getByRole('region', { name: tr(lang, 'reminders:dialog.preview') });
      await waitFor(() => expect(within(preview).getAllByRole('listitem')).toHaveLength(5));
      expect(preview).toHaveTextContent(tr(lang, 'reminders:dialog.previewPassedLeftOut'));
      expect(counts).toEqual([50]);
      // the first listed is the one still to come today (start + 3 days, in 10 min), not the start
      expect(within(preview).getAllByRole('listitem')[0]).toHaveTextContent(lang === 'ja' ? '今日' : 'Today');
    });
  }

  it('en: a start to come is previewed as before: 5, no note', async () => {
    const { dialog, counts } = await renderDialog('en', formIn(30, [], { kind: 'daily' }), {
      occurrences: (count) => Array.from({ length: count }, (_, i) => new Date(Date.now() + 30 * MIN + i * DAY).toISOString()),
    });
    const preview = within(dialog).getByRole('region', { name: 'Next notifications' });
    await waitFor(() => expect(within(preview).getAllByRole('listitem')).toHaveLength(5));
    expect(preview).not.toHaveTextContent(tr('en', 'reminders:dialog.previewPassedLeftOut'));
    expect(counts).toEqual([5]);
  });
});
