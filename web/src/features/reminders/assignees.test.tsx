/**
 * Who is reminded in a shared list (decisions.md "Households"): the dialog's people as toggle
 * chips (none = everyone), "Take turns" with two or more, in the order pressed, sent on Save,
 * reset by another list, the server's refusals at these fields; whose turn in the preview, the
 * details and the card; who each device is and who acted in the delivery history. ja and en.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, type ReactNode } from 'react';
import { MemoryRouter } from '../../lib/router';
import { SWRConfig } from 'swr';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { ApiError } from '../../lib/api';
import { resetAuthForTests } from '../../lib/authStore';
import type { Lang } from '../../lib/lang';
import type { DeliveryLog, List, Member, Reminder, ReminderInput } from '../../lib/types';
import { list } from '../../test/listsFixtures';
import { mockFetch, ok } from '../../test/renderApp';
import { tr } from '../../test/texts';
import { AssigneeTag } from './list/AssigneeTag';
import { ReminderDetails } from './details/ReminderDetails';
import { ReminderDialog } from './dialog/ReminderDialog';
import { emptyForm, formFromReminder } from './reminderLogic';

const AT = '2030-01-07T00:00:00Z';
const ME = { id: 'u-me', email: 'taro@example.com', is_active: true, created_at: AT, updated_at: AT };
const MEMBERS: Member[] = [
  { user_id: 'u-me', email: 'taro@example.com', role: 'owner', joined_at: AT },
  { user_id: 'u-hanako', email: 'hanako@example.com', role: 'member', joined_at: AT },
  { user_id: 'u-jiro', email: 'jiro@example.com', role: 'member', joined_at: AT },
];
const LISTS: List[] = [list({ id: 'l-home', name: 'Home', is_default: true, members: 3 }), list({ id: 'l-solo', name: 'Solo', members: 1 })];
const OCCURRENCES = ['2030-01-07T00:00:00Z', '2030-01-08T00:00:00Z', '2030-01-09T00:00:00Z'];

function reminder(extra: Partial<Reminder> = {}): Reminder {
  return {
    id: 'r1', user_id: 'u-me', title: 'Bins', send_at: AT, scheduled_at: AT, timezone: 'Asia/Tokyo', recurrence: { kind: 'daily' }, alerts: [{ before_minutes: 0 }],
    overdue: false, is_active: true, is_archived: false, status: 'pending', list_id: 'l-home', assignees: [], rotate: false, break_through: false, created_by: 'u-me',
    created_at: AT, updated_at: AT, ...extra,
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

function server(extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    'POST /api/reminders/preview': () => ok({ occurrences: OCCURRENCES }),
    'GET /api/lists/l-home/members': () => ok(MEMBERS),
    ...extra,
  });
}

async function openDialog(lang: Lang, opts: { editing?: Reminder; onSave?: (input: ReminderInput) => Promise<void> } = {}) {
  const onSave = vi.fn(opts.onSave ?? (async () => {}));
  const initial = opts.editing ? formFromReminder(opts.editing, 'Asia/Tokyo') : { ...emptyForm('Asia/Tokyo', Date.parse('2030-01-06T00:00:00Z'), 'l-home'), title: 'Bins', kind: 'daily' as const };
  await wrap(lang, <ReminderDialog open initial={initial} editing={opts.editing ?? null} onClose={() => {}} onSave={onSave} deviceNotice={null} lists={LISTS} />);
  return { onSave, dialog: await screen.findByRole('dialog') };
}

const people = (lang: Lang) => screen.findByRole('group', { name: tr(lang, 'reminders:assign.label') });
const chip = (group: HTMLElement, email: string) => within(group).getByRole('button', { name: new RegExp(email.replace('.', '\\.')) });
const preview = (lang: Lang) => screen.getByRole('region', { name: tr(lang, 'reminders:dialog.preview') });

beforeEach(() => {
  resetAuthForTests({ user: ME, status: 'signedIn' });
  vi.spyOn(Date, 'now').mockReturnValue(Date.parse('2030-01-06T00:00:00Z'));
});

describe('who is reminded, in the dialog', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: each person a toggle chip (you marked), none = everyone; two chosen take turns in the order pressed, the preview saying whose turn; Save sends them`, async () => {
      server();
      const user = userEvent.setup({ advanceTimers: () => {} });
      const { onSave } = await openDialog(lang);
      const group = await people(lang);
      expect(within(group).getAllByRole('button')).toHaveLength(3);
      for (const b of within(group).getAllByRole('button')) expect(b).toHaveAttribute('aria-pressed', 'false');
      expect(chip(group, 'taro@example.com')).toHaveTextContent(tr(lang, 'reminders:assign.youMark'));
      expect(group).toHaveTextContent(tr(lang, 'reminders:assign.everyone'));
      expect(within(group).queryByRole('checkbox')).toBeNull();

      // hanako first (by keyboard), then taro
      chip(group, 'hanako@example.com').focus();
      await user.keyboard('{Enter}');
      await user.click(chip(group, 'taro@example.com'));
      expect(chip(group, 'hanako@example.com')).toHaveAttribute('aria-pressed', 'true');
      expect(chip(group, 'taro@example.com')).toHaveAttribute('aria-pressed', 'true');
      expect(group).toHaveTextContent(tr(lang, 'reminders:assign.chosen'));
      const turns = within(group).getByRole('checkbox', { name: tr(lang, 'reminders:assign.rotate') });
      const you = tr(lang, 'reminders:assign.you');
      expect(group).toHaveTextContent(tr(lang, 'reminders:assign.rotateHint', { order: `hanako@example.com → ${you}` }));
      await user.click(turns);
      expect(turns).toBeChecked();

      await waitFor(() => expect(within(preview(lang)).getAllByRole('listitem')).toHaveLength(3));
      expect(within(preview(lang)).getAllByRole('listitem').map((li) => li.querySelector('.badge')?.textContent)).toEqual([
        tr(lang, 'reminders:assign.turn', { name: 'hanako@example.com' }),
        tr(lang, 'reminders:assign.turn', { name: you }),
        tr(lang, 'reminders:assign.turn', { name: 'hanako@example.com' }),
      ]);

      await user.click(screen.getByRole('button', { name: tr(lang, 'reminders:dialog.save') }));
      await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
      expect(onSave.mock.calls[0]![0]).toMatchObject({ list_id: 'l-home', assignees: ['u-hanako', 'u-me'], rotate: true });
    });
  }

  it('one left takes no turns; another list starts again at everyone; a list of one person has no such field', async () => {
    const fetch = server();
    const user = userEvent.setup({ advanceTimers: () => {} });
    await openDialog('en');
    const group = await people('en');
    await user.click(chip(group, 'jiro@example.com'));
    await user.click(chip(group, 'hanako@example.com'));
    await user.click(within(group).getByRole('checkbox'));
    await user.click(chip(group, 'jiro@example.com'));
    expect(within(group).queryByRole('checkbox')).toBeNull();
    expect(within(preview('en')).queryByText(/^Turn:/)).toBeNull();

    await user.selectOptions(screen.getByLabelText(tr('en', 'reminders:fields.list')), 'l-solo');
    expect(screen.queryByRole('group', { name: tr('en', 'reminders:assign.label') })).toBeNull();
    await user.selectOptions(screen.getByLabelText(tr('en', 'reminders:fields.list')), 'l-home');
    const again = await people('en');
    for (const b of within(again).getAllByRole('button')) expect(b).toHaveAttribute('aria-pressed', 'false');
    expect(fetch.mock.calls.some(([url]) => String(url).includes('/api/lists/l-solo/members'))).toBe(false);
  });

  it("an edit starts with the reminder's people, and its turns where the server says the next one is", async () => {
    server({ 'GET /api/reminders/r1/occurrences': () => ok({ occurrences: OCCURRENCES, assignees: ['u-jiro', 'u-hanako', 'u-jiro'] }) });
    await openDialog('en', { editing: reminder({ assignees: ['u-hanako', 'u-jiro'], rotate: true }) });
    const group = await people('en');
    expect(chip(group, 'hanako@example.com')).toHaveAttribute('aria-pressed', 'true');
    expect(chip(group, 'jiro@example.com')).toHaveAttribute('aria-pressed', 'true');
    expect(within(group).getByRole('checkbox')).toBeChecked();
    await waitFor(() => expect(preview('en').querySelectorAll('.badge')).toHaveLength(3));
    expect([...preview('en').querySelectorAll('.badge')].map((b) => b.textContent)).toEqual(['Turn: jiro@example.com', 'Turn: hanako@example.com', 'Turn: jiro@example.com']);
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: the server's refusals show at these fields, in the page's language`, async () => {
      server();
      const user = userEvent.setup({ advanceTimers: () => {} });
      const refusal = new ApiError('Some fields are invalid.', {
        status: 400,
        code: 'VALIDATION_FAILED',
        fields: { assignees: 'x', rotate: 'y' },
        details: [
          { field: 'assignees', code: 'invalid_choice' },
          { field: 'rotate', code: 'too_short', params: { min: 2 } },
        ],
      });
      await openDialog(lang, { onSave: () => Promise.reject(refusal) });
      const group = await people(lang);
      await user.click(chip(group, 'hanako@example.com'));
      await user.click(screen.getByRole('button', { name: tr(lang, 'reminders:dialog.save') }));
      expect(await within(group).findByText(tr(lang, 'errors:field.assigneesNotMember'))).toHaveClass('field-error');
      expect(within(group).getByText(tr(lang, 'errors:field.rotateTooShort', { min: 2 }))).toHaveClass('field-error');
      // each goes once its field changes
      await user.click(chip(group, 'jiro@example.com'));
      await waitFor(() => expect(within(group).queryByText(tr(lang, 'errors:field.assigneesNotMember'))).toBeNull());
    });
  }
});

function log(id: string, extra: Partial<DeliveryLog>): DeliveryLog {
  return { id, occurrence_at: '2030-01-05T00:00:00Z', kind: 'occurrence', status: 'shown', late: false, devices: [], ...extra } as DeliveryLog;
}

const LOGS: DeliveryLog[] = [
  log('l1', {
    occurrence_at: '2030-01-05T00:00:00Z',
    action: 'complete',
    action_by: 'u-hanako',
    devices: [
      { subscription_id: 's1', label: 'iPhone', status: 'sent', user_id: 'u-hanako' },
      { subscription_id: 's2', label: 'Pixel', status: 'sent', user_id: 'u-me' },
    ],
  }),
  log('l2', { occurrence_at: '2030-01-04T00:00:00Z', action: 'snooze', action_by: 'u-me', devices: [] }),
];

async function details(lang: Lang, r: Reminder, shared: boolean) {
  server({
    'GET /api/reminders/r1/occurrences': () => ok({ occurrences: OCCURRENCES, ...(r.rotate ? { assignees: ['u-me', 'u-hanako', 'u-me'] } : {}) }),
    'GET /api/reminders/r1/logs': () => ok(LOGS),
  });
  await wrap(lang, <ReminderDetails reminder={r} snoozeMinutes={10} snoozeClock={{ timezone: 'Asia/Tokyo', morningTime: '08:00', eveningTime: '18:00' }} shared={shared} />);
  const history = await screen.findByRole('region', { name: tr(lang, 'reminders:details.history') });
  await waitFor(() => expect(history.querySelectorAll('.delivery-entry')).toHaveLength(2));
  return { history, upcoming: screen.getByRole('region', { name: tr(lang, 'reminders:details.upcoming') }) };
}

describe('whose turn, whose device and who acted, in the details', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: the next occurrences say whose turn; each device names its person; who completed or snoozed it`, async () => {
      const { history, upcoming } = await details(lang, reminder({ assignees: ['u-me', 'u-hanako'], rotate: true }), true);
      const you = tr(lang, 'reminders:assign.you');
      await waitFor(() => expect(upcoming.querySelectorAll('.badge')).toHaveLength(3));
      expect([...upcoming.querySelectorAll('li')].map((li) => li.querySelector('.badge')?.textContent)).toEqual([
        tr(lang, 'reminders:assign.turn', { name: you }),
        tr(lang, 'reminders:assign.turn', { name: 'hanako@example.com' }),
        tr(lang, 'reminders:assign.turn', { name: you }),
      ]);
      const [completed, snoozed] = [...history.querySelectorAll('.delivery-entry')] as [HTMLElement, HTMLElement];
      await waitFor(() => expect(completed).toHaveTextContent(tr(lang, 'reminders:details.actedBy.complete', { name: 'hanako@example.com' })));
      expect(completed).toHaveTextContent(tr(lang, 'reminders:details.deviceOf', { device: 'iPhone', person: 'hanako@example.com' }));
      expect(completed).toHaveTextContent(tr(lang, 'reminders:details.deviceOf', { device: 'Pixel', person: you }));
      expect(snoozed).toHaveTextContent(tr(lang, 'reminders:details.actedByYou.snooze'));
    });
  }

  it('a list of one person looks as before: no turns, no names', async () => {
    const fetch = server();
    const { history, upcoming } = await details('en', reminder(), false);
    await waitFor(() => expect(upcoming.querySelectorAll('li')).toHaveLength(3));
    expect(upcoming.querySelector('.badge')).toBeNull();
    const [completed, snoozed] = [...history.querySelectorAll('.delivery-entry')] as [HTMLElement, HTMLElement];
    expect(completed).toHaveTextContent('iPhone: SentPixel: Sent');
    expect(completed.querySelector('.badge.muted')).toHaveTextContent(/^Completed$/);
    expect(snoozed.querySelector('.badge.muted')).toHaveTextContent(/^Snoozed$/);
    expect(fetch.mock.calls.some(([url]) => String(url).includes('/members'))).toBe(false);
  });
});

describe('who it is for, on the card', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: names its people ("you" for the reader), or, taking turns, whose turn is next`, async () => {
      server({ 'GET /api/reminders/r2/occurrences': () => ok({ occurrences: OCCURRENCES, assignees: ['u-hanako', 'u-me', 'u-hanako'] }) });
      const you = tr(lang, 'reminders:assign.you');
      await wrap(
        lang,
        <>
          <AssigneeTag reminder={reminder({ assignees: ['u-hanako', 'u-me'] })} />
          <AssigneeTag reminder={reminder({ id: 'r2', assignees: ['u-me', 'u-hanako'], rotate: true })} />
        </>,
      );
      const all = tr(lang, 'reminders:assign.for', { names: `hanako@example.com${tr(lang, 'reminders:assign.separator')}${you}` });
      expect(await screen.findByText(all)).toHaveClass('assignee-tag');
      const next = await screen.findByText(tr(lang, 'reminders:assign.next', { name: 'hanako@example.com' }));
      expect(next).toHaveAttribute('title', tr(lang, 'reminders:assign.for', { names: `${you}${tr(lang, 'reminders:assign.separator')}hanako@example.com` }));
    });
  }
});
