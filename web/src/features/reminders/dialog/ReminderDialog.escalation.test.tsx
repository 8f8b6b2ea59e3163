/**
 * Repeat until done's escalation (decisions.md "Reach and rhythm"): in the reminder dialog, up to
 * 3 steps "after N unanswered repeats" → email me / my channels / a member of the list (offered
 * only when the list has other people), sent as `repeat_until_done.escalate`; an edit sends it
 * only when it changed; the server's refusal of `repeat_until_done.escalate` shows under the
 * steps; the dialog's summary and the details say it. ja and en.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, type ReactNode } from 'react';
import { MemoryRouter } from '../../../lib/router';
import { SWRConfig } from 'swr';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../i18n';
import { ApiError } from '../../../lib/api';
import { resetAuthForTests } from '../../../lib/authStore';
import type { Lang } from '../../../lib/lang';
import type { List, Member, Reminder, ReminderInput } from '../../../lib/types';
import { list } from '../../../test/listsFixtures';
import { mockFetch, ok } from '../../../test/renderApp';
import { tr } from '../../../test/texts';
import { ReminderDetails } from '../details/ReminderDetails';
import { ReminderDialog } from './ReminderDialog';
import { changedFields, emptyForm, formFromReminder, formToInput, validateForm, withRepeatTimes, type ReminderForm } from '../reminderLogic';

const AT = '2030-01-07T00:00:00Z';
const ME = { id: 'u-me', email: 'taro@example.com', is_active: true, created_at: AT, updated_at: AT };
const MEMBERS: Member[] = [
  { user_id: 'u-me', email: 'taro@example.com', role: 'owner', joined_at: AT },
  { user_id: 'u-hanako', email: 'hanako@example.com', role: 'member', joined_at: AT },
];
const HOME = list({ id: 'l-home', name: 'Home', members: 2 });
const SOLO = list({ id: 'l-solo', name: 'Solo', is_default: true, members: 1 });

function reminder(extra: Partial<Reminder> = {}): Reminder {
  return {
    id: 'r1', user_id: 'u-me', title: 'Medicine', send_at: AT, scheduled_at: AT, timezone: 'Asia/Tokyo', recurrence: { kind: 'daily' },
    alerts: [{ before_minutes: 0 }], overdue: false, is_active: true, is_archived: false, status: 'pending', list_id: 'l-home', assignees: [],
    rotate: false, break_through: false, created_by: 'u-me', created_at: AT, updated_at: AT, ...extra,
  };
}

async function wrap(lang: Lang, node: ReactNode) {
  const i18n = initI18n(lang);
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces(['reminders', 'errors']);
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter>
        <Suspense fallback={null}>{node}</Suspense>
      </MemoryRouter>
    </SWRConfig>,
  );
}

function server() {
  return mockFetch({
    'POST /api/reminders/preview': () => ok({ occurrences: [AT] }),
    'GET /api/lists/l-home/members': () => ok(MEMBERS),
    'GET /api/reminders/r1/occurrences': () => ok({ occurrences: [AT] }),
    'GET /api/reminders/r1/logs': () => ok([]),
  });
}

async function openDialog(lang: Lang, opts: { lists: List[]; listId: string; editing?: Reminder; onSave?: (input: ReminderInput) => Promise<void> }) {
  server();
  const onSave = vi.fn(opts.onSave ?? (async () => {}));
  const initial: ReminderForm = opts.editing
    ? formFromReminder(opts.editing, 'Asia/Tokyo')
    : { ...emptyForm('Asia/Tokyo', Date.parse('2030-01-06T00:00:00Z'), opts.listId), title: 'Medicine', kind: 'daily' };
  await wrap(lang, <ReminderDialog open initial={initial} editing={opts.editing ?? null} onClose={() => {}} onSave={onSave} deviceNotice={null} lists={opts.lists} />);
  return { onSave, dialog: await screen.findByRole('dialog') };
}

const times = (lang: Lang, count: number) => tr(lang, `reminders:escalate.afterTimes_${count === 1 ? 'one' : 'other'}`, { count });
const summary = (lang: Lang, to: 'email' | 'channels' | 'member', count: number, name = '') =>
  tr(lang, `reminders:escalate.summary.${to}_${count === 1 ? 'one' : 'other'}`, { count, name });

/** Opens "Alerts and repeat until done" and turns repeating on: every 5 min, `max` times. */
async function repeatEvery5(user: ReturnType<typeof userEvent.setup>, lang: Lang, max = 3) {
  await user.click(screen.getByRole('button', { name: tr(lang, 'reminders:alarms.disclosure') }));
  await user.selectOptions(screen.getByLabelText(tr(lang, 'reminders:alarms.repeat')), tr(lang, 'reminders:alarms.repeatEvery', { n: 5 }));
  await user.selectOptions(screen.getByLabelText(tr(lang, 'reminders:alarms.repeatTimes')), tr(lang, `reminders:alarms.times_other`, { count: max }));
}

const steps = (lang: Lang) => screen.getByRole('group', { name: tr(lang, 'reminders:escalate.label') });
const step = (lang: Lang, n: number) => within(steps(lang)).getByRole('group', { name: tr(lang, 'reminders:escalate.step', { n }) });

beforeEach(() => {
  resetAuthForTests({ user: ME, status: 'signedIn' });
  vi.spyOn(Date, 'now').mockReturnValue(Date.parse('2030-01-06T00:00:00Z'));
});

describe('escalation in the form', () => {
  const base = { ...emptyForm('Asia/Tokyo', Date.parse('2030-01-06T00:00:00Z')), title: 'x', repeatEvery: 5, repeatTimes: 3 };

  it('sends the steps inside repeat_until_done, member_id only with a member; none: no escalate; repeat off: nothing', () => {
    expect(formToInput(base).repeat_until_done).toEqual({ every_minutes: 5, max_times: 3 });
    const input = formToInput({
      ...base,
      escalate: [
        { after: 1, to: 'email', memberId: '' },
        { after: 2, to: 'channels', memberId: 'u-left-over' },
        { after: 3, to: 'member', memberId: 'u-hanako' },
      ],
    });
    expect(input.repeat_until_done).toEqual({
      every_minutes: 5,
      max_times: 3,
      escalate: [{ after_times: 1, to: 'email' }, { after_times: 2, to: 'channels' }, { after_times: 3, to: 'member', member_id: 'u-hanako' }],
    });
    expect(formToInput({ ...base, repeatEvery: 0, escalate: [{ after: 1, to: 'email', memberId: '' }] })).not.toHaveProperty('repeat_until_done');
  });

  it('reads a stored reminder back; an edit sends repeat_until_done only when a step changed', () => {
    const stored = reminder({ repeat_until_done: { every_minutes: 5, max_times: 3, escalate: [{ after_times: 2, to: 'member', member_id: 'u-hanako' }] } });
    const form = formFromReminder(stored, 'Asia/Tokyo');
    expect(form.escalate).toEqual([{ after: 2, to: 'member', memberId: 'u-hanako' }]);
    const before = formToInput(form);
    expect(changedFields(before, formToInput({ ...form, title: 'Pills' }))).toEqual({ title: 'Pills' });
    expect(changedFields(before, formToInput({ ...form, escalate: [] }))).toEqual({ repeat_until_done: { every_minutes: 5, max_times: 3 } });
    expect(formFromReminder(reminder(), 'Asia/Tokyo').escalate).toEqual([]);
  });

  it('fewer repeats bring a later step to the last one; a member step needs its member', () => {
    const form = { ...base, repeatTimes: 5, escalate: [{ after: 2, to: 'email' as const, memberId: '' }, { after: 5, to: 'channels' as const, memberId: '' }] };
    expect(withRepeatTimes(form, 3).escalate.map((s) => s.after)).toEqual([2, 3]);
    expect(validateForm({ ...base, escalate: [{ after: 1, to: 'member', memberId: '' }] }, Date.now(), { requireFuture: false }).escalate).toBe('errors.escalateMemberRequired');
    expect(validateForm({ ...base, escalate: [{ after: 4, to: 'email', memberId: '' }] }, Date.now(), { requireFuture: false }).escalate).toBe('errors.escalateAfterRange');
    expect(validateForm({ ...base, repeatEvery: 0, escalate: [{ after: 1, to: 'member', memberId: '' }] }, Date.now(), { requireFuture: false })).toEqual({});
  });
});

describe('the dialog sends repeat_until_done.escalate', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: in a shared list, steps to email, channels and the other member; at most 3; the summary says them`, async () => {
      const user = userEvent.setup();
      const { onSave } = await openDialog(lang, { lists: [SOLO, HOME], listId: 'l-home' });
      // not offered until repeats are on
      expect(screen.queryByRole('button', { name: tr(lang, 'reminders:escalate.add') })).toBeNull();
      await repeatEvery5(user, lang, 3);
      expect(steps(lang)).toHaveAccessibleDescription(tr(lang, 'reminders:escalate.hint', { max: 3 }));
      const add = () => user.click(within(steps(lang)).getByRole('button', { name: tr(lang, 'reminders:escalate.add') }));

      await add();
      const first = step(lang, 1);
      expect(within(first).getByLabelText(tr(lang, 'reminders:escalate.after'))).toHaveDisplayValue(times(lang, 1));
      expect(within(first).getByLabelText(tr(lang, 'reminders:escalate.to'))).toHaveDisplayValue(tr(lang, 'reminders:escalate.toOption.email'));
      // only 1..3 repeats to choose from
      expect(within(within(first).getByLabelText(tr(lang, 'reminders:escalate.after'))).getAllByRole('option')).toHaveLength(3);

      await add();
      await user.selectOptions(within(step(lang, 2)).getByLabelText(tr(lang, 'reminders:escalate.to')), tr(lang, 'reminders:escalate.toOption.channels'));
      await add();
      const third = step(lang, 3);
      await user.selectOptions(within(third).getByLabelText(tr(lang, 'reminders:escalate.after')), times(lang, 3));
      await user.selectOptions(within(third).getByLabelText(tr(lang, 'reminders:escalate.to')), tr(lang, 'reminders:escalate.toOption.member'));
      // the only other person is chosen at once; the reader is not offered
      const who = within(third).getByLabelText(tr(lang, 'reminders:escalate.member'));
      expect(who).toHaveDisplayValue('hanako@example.com');
      expect(within(who).queryByRole('option', { name: 'taro@example.com' })).toBeNull();
      // three is the most
      expect(within(steps(lang)).queryByRole('button', { name: tr(lang, 'reminders:escalate.add') })).toBeNull();
      expect(within(steps(lang)).getByText(tr(lang, 'reminders:escalate.full'))).toBeVisible();

      const sep = tr(lang, 'reminders:recurrence.label.separator');
      expect(
        screen.getByText(
          [
            tr(lang, 'reminders:alarms.nag_other', { every: 5, count: 3 }),
            summary(lang, 'email', 1),
            summary(lang, 'channels', 2),
            summary(lang, 'member', 3, 'hanako@example.com'),
          ].join(sep),
        ),
      ).toBeVisible();

      await user.click(screen.getByRole('button', { name: tr(lang, 'reminders:dialog.save') }));
      await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
      expect(onSave.mock.calls[0]![0].repeat_until_done).toEqual({
        every_minutes: 5,
        max_times: 3,
        escalate: [{ after_times: 1, to: 'email' }, { after_times: 2, to: 'channels' }, { after_times: 3, to: 'member', member_id: 'u-hanako' }],
      });
    });
  }

  it('en: a list of one person offers no member; a removed step is not sent', async () => {
    const user = userEvent.setup();
    const { onSave } = await openDialog('en', { lists: [SOLO, HOME], listId: 'l-solo' });
    await repeatEvery5(user, 'en', 2);
    const add = () => user.click(within(steps('en')).getByRole('button', { name: tr('en', 'reminders:escalate.add') }));
    await add();
    await add();
    const to = within(step('en', 1)).getByLabelText(tr('en', 'reminders:escalate.to'));
    expect(within(to).getAllByRole('option').map((o) => o.textContent)).toEqual([tr('en', 'reminders:escalate.toOption.email'), tr('en', 'reminders:escalate.toOption.channels')]);
    await user.selectOptions(within(step('en', 2)).getByLabelText(tr('en', 'reminders:escalate.to')), tr('en', 'reminders:escalate.toOption.channels'));
    await user.click(within(step('en', 1)).getByRole('button', { name: tr('en', 'reminders:escalate.remove', { n: 1 }) }));
    await user.click(screen.getByRole('button', { name: tr('en', 'reminders:dialog.save') }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0].repeat_until_done).toEqual({ every_minutes: 5, max_times: 2, escalate: [{ after_times: 2, to: 'channels' }] });
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: the server's refusal of repeat_until_done.escalate shows under the steps, in the page's language`, async () => {
      const user = userEvent.setup();
      const refusal = new ApiError('Some fields are invalid.', {
        status: 400,
        code: 'VALIDATION_FAILED',
        fields: { 'repeat_until_done.escalate': 'member_id must be a member of the reminder\'s list' },
        details: [{ field: 'repeat_until_done.escalate', code: 'invalid_choice' }],
      });
      const stored = reminder({ repeat_until_done: { every_minutes: 5, max_times: 3, escalate: [{ after_times: 1, to: 'email' }] } });
      await openDialog(lang, { lists: [SOLO, HOME], listId: 'l-home', editing: stored, onSave: () => Promise.reject(refusal) });
      await user.click(screen.getByRole('button', { name: tr(lang, 'reminders:dialog.save') }));
      const message = tr(lang, 'errors:field.escalateMember');
      const shown = await within(steps(lang)).findByText(message);
      expect(shown).toHaveClass('field-error');
      expect(within(step(lang, 1)).getByLabelText(tr(lang, 'reminders:escalate.after'))).toHaveAttribute('aria-invalid', 'true');
      expect(within(step(lang, 1)).getByLabelText(tr(lang, 'reminders:escalate.after'))).toHaveAccessibleDescription(message);
      // not at the repeat's own fields, and not in English in ja
      expect(screen.getByLabelText(tr(lang, 'reminders:alarms.repeatTimes'))).not.toHaveAttribute('aria-invalid');
      expect(screen.getByRole('dialog').textContent).not.toMatch(/member_id must/);
    });
  }

  it('en: a member step without a member is stopped before Save, at the steps', async () => {
    const user = userEvent.setup();
    const MORE = [...MEMBERS, { user_id: 'u-jiro', email: 'jiro@example.com', role: 'member' as const, joined_at: AT }];
    mockFetch({ 'POST /api/reminders/preview': () => ok({ occurrences: [AT] }), 'GET /api/lists/l-home/members': () => ok(MORE) });
    const onSave = vi.fn(async () => {});
    const initial = { ...emptyForm('Asia/Tokyo', Date.parse('2030-01-06T00:00:00Z'), 'l-home'), title: 'Medicine', kind: 'daily' as const };
    await wrap('en', <ReminderDialog open initial={initial} editing={null} onClose={() => {}} onSave={onSave} deviceNotice={null} lists={[SOLO, { ...HOME, members: 3 }]} />);
    await repeatEvery5(user, 'en');
    await user.click(within(steps('en')).getByRole('button', { name: tr('en', 'reminders:escalate.add') }));
    await user.selectOptions(within(step('en', 1)).getByLabelText(tr('en', 'reminders:escalate.to')), tr('en', 'reminders:escalate.toOption.member'));
    const who = within(step('en', 1)).getByLabelText(tr('en', 'reminders:escalate.member'));
    expect(who).toHaveDisplayValue(tr('en', 'reminders:escalate.memberChoose'));
    await user.click(screen.getByRole('button', { name: tr('en', 'reminders:dialog.save') }));
    expect(await within(steps('en')).findByText(tr('en', 'reminders:errors.escalateMemberRequired'))).toBeVisible();
    expect(onSave).not.toHaveBeenCalled();
    await user.selectOptions(who, 'jiro@example.com');
    await waitFor(() => expect(within(steps('en')).queryByText(tr('en', 'reminders:errors.escalateMemberRequired'))).toBeNull());
  });
});

describe('the details say where it escalates', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: each step among the notifications, a member by their address`, async () => {
      server();
      const clock = { timezone: 'Asia/Tokyo', morningTime: '08:00', eveningTime: '18:00' };
      const r = reminder({
        repeat_until_done: { every_minutes: 10, max_times: 4, escalate: [{ after_times: 1, to: 'channels' }, { after_times: 4, to: 'member', member_id: 'u-hanako' }] },
      });
      await wrap(lang, <ReminderDetails reminder={r} snoozeMinutes={10} snoozeClock={clock} />);
      const sep = tr(lang, 'reminders:recurrence.label.separator');
      const expected = [
        tr(lang, 'reminders:alarms.nag_other', { every: 10, count: 4 }),
        summary(lang, 'channels', 1),
        summary(lang, 'member', 4, 'hanako@example.com'),
      ].join(sep);
      await waitFor(() => expect(document.querySelector('.alarm-summary')?.textContent).toBe(`${tr(lang, 'reminders:alarms.heading')}: ${expected}`));
    });
  }
});
