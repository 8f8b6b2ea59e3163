import { describe, expect, it } from 'vitest';
import type { Reminder } from '../../lib/types';
import {
  DEFAULT_ALARM_OPTIONS,
  DEFAULT_REPEAT_OPTIONS,
  alertsOf,
  changedFields,
  buildRecurrence,
  nthWeekdayOf,
  repeatOptionsOf,
  changedFormFields,
  dashboardSummary,
  recheckErrors,
  emptyForm,
  formFromReminder,
  formToInput,
  latestLog,
  toggleAssignee,
  turnOf,
  logStatusKey,
  validateForm,
  type ReminderForm,
} from './reminderLogic';

function rem(id: string, scheduled: string, extra: Partial<Reminder> = {}): Reminder {
  return {
    id,
    user_id: 'u',
    title: id,
    send_at: scheduled,
    scheduled_at: scheduled,
    timezone: 'UTC',
    recurrence: { kind: 'none' },
    alerts: [{ before_minutes: 0 }],
    overdue: false,
    is_active: true,
    is_archived: false,
    status: 'pending', list_id: 'list-1', assignees: [], rotate: false, break_through: false, created_by: 'u1',
    created_at: scheduled,
    updated_at: scheduled,
    ...extra,
  };
}

describe('changedFields: an edit sends only what changed', () => {
  const before = { title: 'Stretch', description: null, send_at: '2026-03-01T09:00:00+09:00', timezone: 'Asia/Tokyo', recurrence: { kind: 'daily' as const } };
  it('a title-only edit sends only the title, never the past send_at', () => {
    expect(changedFields(before, { ...before, title: 'Stretch well' })).toEqual({ title: 'Stretch well' });
  });
  it('the same instant written another way is no change', () => {
    expect(changedFields(before, { ...before, send_at: '2026-03-01T00:00:00Z' })).toEqual({});
  });
  it('a moved time, a new zone, a new recurrence and a cleared description are sent', () => {
    const after = { ...before, description: null, send_at: '2026-03-02T09:00:00+09:00', timezone: 'UTC', recurrence: { kind: 'weekdays' as const } };
    expect(changedFields({ ...before, description: 'old' }, after)).toEqual({
      description: null,
      send_at: '2026-03-02T09:00:00+09:00',
      timezone: 'UTC',
      recurrence: { kind: 'weekdays' },
    });
  });
});

describe('the list a reminder goes in', () => {
  it('a new form in a list sends list_id; without one, none (the server puts it in the default list)', () => {
    expect(formToInput({ ...emptyForm('Asia/Tokyo', 0, 'l-work'), title: 'Report' }).list_id).toBe('l-work');
    expect(formToInput({ ...emptyForm('Asia/Tokyo', 0), title: 'Report' })).not.toHaveProperty('list_id');
  });
  it("an edit starts in the reminder's list and sends list_id only when it moves", () => {
    const r = rem('a', '2030-01-01T00:00:00Z', { list_id: 'l-home' });
    const form = formFromReminder(r, 'UTC');
    expect(form.listId).toBe('l-home');
    const before = formToInput(form);
    expect(changedFields(before, formToInput(form))).toEqual({});
    expect(changedFields(before, formToInput({ ...form, listId: 'l-work' }))).toEqual({ list_id: 'l-work' });
  });
});

describe('who is reminded in a shared list', () => {
  it('a new form reminds everyone, taking no turns, and sends neither field', () => {
    const input = formToInput({ ...emptyForm('Asia/Tokyo', 0, 'l-home'), title: 'Bins' });
    expect(input).not.toHaveProperty('assignees');
    expect(input).not.toHaveProperty('rotate');
  });
  it('chosen people are sent in the order pressed; turns only with two or more', () => {
    const form = { ...emptyForm('Asia/Tokyo', 0, 'l-home'), title: 'Bins' };
    let who = toggleAssignee(form, 'u-b');
    who = toggleAssignee(who, 'u-a');
    expect(who).toEqual({ assignees: ['u-b', 'u-a'], rotate: false });
    expect(formToInput({ ...form, ...who, rotate: true })).toMatchObject({ assignees: ['u-b', 'u-a'], rotate: true });
    // pressing again takes one out; one left takes no turns
    expect(toggleAssignee({ ...who, rotate: true }, 'u-b')).toEqual({ assignees: ['u-a'], rotate: false });
    expect(formToInput({ ...form, assignees: ['u-a'], rotate: true })).not.toHaveProperty('rotate');
  });
  it("an edit starts from the reminder's people and sends them only when they change (none again: [] and false)", () => {
    const r = rem('a', '2030-01-01T00:00:00Z', { list_id: 'l-home', assignees: ['u-a', 'u-b'], rotate: true });
    const form = formFromReminder(r, 'UTC');
    expect(form).toMatchObject({ assignees: ['u-a', 'u-b'], rotate: true });
    const before = formToInput(form);
    expect(changedFields(before, formToInput({ ...form, title: 'x' }))).toEqual({ title: 'x' });
    expect(changedFields(before, formToInput({ ...form, rotate: false }))).toEqual({ rotate: false });
    expect(changedFields(before, formToInput({ ...form, assignees: ['u-b', 'u-a'] }))).toEqual({ assignees: ['u-b', 'u-a'] });
    expect(changedFields(before, formToInput({ ...form, listId: 'l-work', assignees: [], rotate: false }))).toEqual({ list_id: 'l-work', assignees: [], rotate: false });
  });
  it('whose turn: the order from the first (or the server\'s next turn), round and round', () => {
    expect([0, 1, 2, 3].map((i) => turnOf(['a', 'b', 'c'], i))).toEqual(['a', 'b', 'c', 'a']);
    expect([0, 1, 2, 3].map((i) => turnOf(['a', 'b', 'c'], i, 'c'))).toEqual(['c', 'a', 'b', 'c']);
    expect(turnOf(['a', 'b'], 1, 'gone')).toBe('b');
    expect(turnOf([], 0)).toBeUndefined();
  });
  it("a server error on the people goes when they or the list change", () => {
    const changed = (over: Partial<ReminderForm>) => changedFormFields(base, { ...base, ...over });
    expect(recheckErrors({ rotate: 'Needs two' }, {}, changed({ title: 'x' }))).toEqual({ rotate: 'Needs two' });
    expect(recheckErrors({ rotate: 'Needs two' }, {}, changed({ assignees: ['a', 'b'] }))).toEqual({});
    expect(recheckErrors({ assignees: 'Not a member' }, {}, changed({ listId: 'l' }))).toEqual({});
  });
});

describe('dashboardSummary', () => {
  it('counts active, archived as completed, and the next 5 active by scheduled_at, which are "due soon"', () => {
    const list = [
      rem('g', '2030-01-07T00:00:00Z'),
      rem('a', '2030-01-01T00:00:00Z'),
      rem('x', '2029-01-01T00:00:00Z', { is_archived: true, is_active: false, status: 'completed' }),
      rem('c', '2030-01-03T00:00:00Z'),
      rem('b', '2030-01-02T00:00:00Z'),
      rem('f', '2030-01-06T00:00:00Z'),
      rem('e', '2030-01-05T00:00:00Z'),
      rem('d', '2030-01-04T00:00:00Z'),
    ];
    const s = dashboardSummary(list);
    expect(s.active).toBe(7);
    expect(s.completed).toBe(1);
    expect(s.upcoming.map((r) => r.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(s.dueSoon).toBe(5);
  });
  it('is empty for no reminders', () => {
    expect(dashboardSummary([])).toEqual({ active: 0, completed: 0, overdue: 0, dueSoon: 0, upcoming: [] });
  });
  it('counts overdue reminders (fired, no action yet)', () => {
    const list = [{ ...rem('a', '2030-01-01T00:00:00Z'), overdue: true }, rem('b', '2030-01-02T00:00:00Z'), { ...rem('c', '2030-01-03T00:00:00Z'), overdue: false }];
    expect(dashboardSummary(list).overdue).toBe(1);
  });
  it('"due soon" is the next 5 active ones however far away, not a time window; archived ones never count', () => {
    const list = [
      rem('in1h', '2030-01-01T01:00:00Z'),
      rem('nextYear', '2031-06-01T00:00:00Z'),
      { ...rem('late', '2029-12-31T23:00:00Z'), overdue: true },
      rem('done', '2030-01-01T02:00:00Z', { is_archived: true, is_active: false, status: 'completed' }),
      rem('off', '2030-01-01T03:00:00Z', { is_active: false }),
    ];
    const s = dashboardSummary(list);
    expect(s.dueSoon).toBe(3);
    expect(s.upcoming.map((r) => r.id)).toEqual(['late', 'in1h', 'nextYear']);
  });
  it('takes the server total of completed ones when given', () => {
    expect(dashboardSummary([rem('a', '2030-01-01T00:00:00Z')], 42).completed).toBe(42);
  });
});

const base: ReminderForm = {
  title: ' Take medicine ',
  description: '',
  listId: '',
  date: '2030-01-02',
  time: '09:00:05',
  timezone: 'Asia/Tokyo',
  kind: 'none',
  intervalHours: 1,
  days: [],
  ...DEFAULT_REPEAT_OPTIONS,
  skip: [],
  ...DEFAULT_ALARM_OPTIONS,
  alerts: [],
  assignees: [],
  rotate: false,
  breakThrough: false,
};

describe('reminder form', () => {
  it('builds the API input with RFC 3339 offset and recurrence objects', () => {
    expect(formToInput(base)).toEqual({
      title: 'Take medicine',
      description: null,
      send_at: '2030-01-02T09:00:05+09:00',
      timezone: 'Asia/Tokyo',
      recurrence: { kind: 'none' },
    });
    expect(buildRecurrence({ ...base, kind: 'custom', days: ['wed', 'mon'] })).toEqual({ kind: 'custom', days: ['mon', 'wed'] });
    expect(buildRecurrence({ ...base, kind: 'hourly', intervalHours: 3 })).toEqual({ kind: 'hourly', interval_hours: 3 });
    expect(buildRecurrence({ ...base, kind: 'weekdays', intervalHours: 3, days: ['mon'] })).toEqual({ kind: 'weekdays' });
  });
  it('validates title, hourly range, custom days and future time', () => {
    const now = Date.UTC(2030, 0, 1);
    expect(validateForm(base, now, { requireFuture: true })).toEqual({});
    expect(validateForm({ ...base, title: '  ' }, now, { requireFuture: true }).title).toBe('errors.titleRequired');
    expect(validateForm({ ...base, title: 'x'.repeat(201) }, now, { requireFuture: true }).title).toBe('errors.titleTooLong');
    expect(validateForm({ ...base, kind: 'hourly', intervalHours: 0 }, now, { requireFuture: true }).intervalHours).toBe('errors.intervalRange');
    expect(validateForm({ ...base, kind: 'hourly', intervalHours: 25 }, now, { requireFuture: true }).intervalHours).toBe('errors.intervalRange');
    expect(validateForm({ ...base, kind: 'hourly', intervalHours: 24 }, now, { requireFuture: true })).toEqual({});
    expect(validateForm({ ...base, kind: 'custom' }, now, { requireFuture: true }).days).toBe('errors.daysRequired');
    expect(validateForm(base, Date.UTC(2030, 0, 3), { requireFuture: true }).time).toBe('errors.mustBeFuture');
    expect(validateForm(base, Date.UTC(2030, 0, 3), { requireFuture: false })).toEqual({});
  });
  it('starts a new form 5 minutes after the next full minute', () => {
    const f = emptyForm('Asia/Tokyo', Date.UTC(2030, 0, 1, 0, 0, 30));
    expect(f).toMatchObject({ date: '2030-01-01', time: '09:06:00', kind: 'none' });
  });
  it('loads an existing reminder into the form', () => {
    const r = rem('r', '2030-01-02T00:00:05Z', { timezone: 'Asia/Tokyo', recurrence: { kind: 'custom', days: ['fri'] }, description: 'd' });
    expect(formFromReminder(r, 'UTC')).toMatchObject({ date: '2030-01-02', time: '09:00:05', kind: 'custom', days: ['fri'], description: 'd' });
  });
});

describe('field errors are checked again as the form changes', () => {
  it('a client error goes once its field is fixed, and says what is wrong now otherwise', () => {
    const shown = { title: 'errors.titleRequired', days: 'errors.daysRequired' };
    const before = { ...base, title: '', kind: 'custom' as const, days: [] };
    const fixedTitle = { ...before, title: 'x' };
    expect(recheckErrors(shown, validateForm(fixedTitle, 0, { requireFuture: false }), changedFormFields(before, fixedTitle))).toEqual({
      days: 'errors.daysRequired',
    });
    const tooLong = { ...before, title: 'x'.repeat(201) };
    expect(recheckErrors(shown, validateForm(tooLong, 0, { requireFuture: false }), changedFormFields(before, tooLong)).title).toBe('errors.titleTooLong');
    const withDay = { ...fixedTitle, days: ['mon' as const] };
    expect(recheckErrors({ days: 'errors.daysRequired' }, validateForm(withDay, 0, { requireFuture: false }), changedFormFields(fixedTitle, withDay))).toEqual({});
  });
  it('no new error appears while typing; a server message goes when its field changes', () => {
    const before = { ...base, title: 'a' };
    const cleared = { ...before, title: '' };
    expect(recheckErrors({}, validateForm(cleared, 0, { requireFuture: false }), changedFormFields(before, cleared))).toEqual({});
    const server = { time: 'must be in the future' };
    const otherField = { ...before, description: 'note' };
    expect(recheckErrors(server, {}, changedFormFields(before, otherField))).toEqual(server);
    const newTime = { ...before, time: '10:00:00' };
    expect(recheckErrors(server, {}, changedFormFields(before, newTime))).toEqual({});
  });
});

describe('recurrence from the form and back', () => {
  // 2030-01-02 is a Wednesday, the first of January 2030.
  const build = (f: Partial<ReminderForm>) => buildRecurrence({ ...base, ...f });
  const roundTrip = (f: Partial<ReminderForm>) => {
    const rec = build(f);
    return buildRecurrence({ ...base, kind: rec.kind, ...repeatOptionsOf(rec, base.date), days: rec.kind === 'custom' ? rec.days : [] });
  };

  it('sends only what differs from the defaults (no interval 1, no holidays ignore, no empty skip)', () => {
    expect(build({ kind: 'daily' })).toEqual({ kind: 'daily' });
    expect(build({ kind: 'daily', interval: 1, holidays: 'ignore', skip: [], end: 'never' })).toEqual({ kind: 'daily' });
    expect(build({ kind: 'monthly', monthlyBy: 'day', monthDay: 2 })).toEqual({ kind: 'monthly' });
    expect(build({ kind: 'monthly', monthlyBy: 'day', monthDay: null })).toEqual({ kind: 'monthly' });
    // a one-time reminder carries none of the options
    expect(build({ kind: 'none', interval: 3, end: 'count', count: 2, holidays: 'skip', skip: ['2030-01-03'] })).toEqual({ kind: 'none' });
    // weekdays and hourly have no interval
    expect(build({ kind: 'weekdays', interval: 3 })).toEqual({ kind: 'weekdays' });
  });

  it('builds intervals, monthly days and weekdays, ends, skips and holiday rules', () => {
    expect(build({ kind: 'custom', days: ['thu', 'tue'], interval: 2 })).toEqual({ kind: 'custom', days: ['tue', 'thu'], interval: 2 });
    expect(build({ kind: 'monthly', monthlyBy: 'weekday', week: 2, weekday: 'tue', holidays: 'skip', end: 'count', count: 5 })).toEqual({
      kind: 'monthly',
      week: 2,
      weekday: 'tue',
      count: 5,
      holidays: 'skip',
    });
    expect(build({ kind: 'monthly', monthlyBy: 'lastDay', interval: 3 })).toEqual({ kind: 'monthly', interval: 3, day: -1 });
    expect(build({ kind: 'monthly', monthlyBy: 'day', monthDay: 25 })).toEqual({ kind: 'monthly', day: 25 });
    expect(build({ kind: 'yearly', interval: 2, end: 'until', until: '2040-12-31' })).toEqual({ kind: 'yearly', interval: 2, until: '2040-12-31' });
    expect(build({ kind: 'weekly', skip: ['2030-02-01', '2030-01-09'], holidays: 'next_business_day' })).toEqual({
      kind: 'weekly',
      skip: ['2030-01-09', '2030-02-01'],
      holidays: 'next_business_day',
    });
    expect(build({ kind: 'hourly', intervalHours: 6, end: 'count', count: 3 })).toEqual({ kind: 'hourly', interval_hours: 6, count: 3 });
  });

  it('reads every option back from a stored recurrence', () => {
    for (const f of [
      { kind: 'monthly', monthlyBy: 'weekday', week: -1, weekday: 'fri', holidays: 'previous_business_day' },
      { kind: 'monthly', monthlyBy: 'day', monthDay: 31, interval: 12, end: 'until', until: '2031-01-01' },
      { kind: 'monthly', monthlyBy: 'lastDay', skip: ['2030-01-31'] },
      { kind: 'custom', days: ['sat'], interval: 52, end: 'count', count: 1000 },
      { kind: 'daily', interval: 365, holidays: 'skip' },
      { kind: 'yearly' },
    ] as Partial<ReminderForm>[]) {
      expect(roundTrip(f)).toEqual(build(f));
    }
    expect(repeatOptionsOf({ kind: 'weekly' }, '2030-01-02')).toMatchObject({ interval: 1, end: 'never', holidays: 'ignore', skip: [], monthlyBy: 'day', monthDay: null });
  });

  it('offers the start date as the Nth weekday (a fifth one as the last)', () => {
    expect(nthWeekdayOf('2030-01-02')).toEqual({ week: 1, weekday: 'wed' });
    expect(nthWeekdayOf('2026-12-08')).toEqual({ week: 2, weekday: 'tue' });
    expect(nthWeekdayOf('2026-12-29')).toEqual({ week: -1, weekday: 'tue' });
  });

  it('validates interval per kind, month day, end date and count', () => {
    const now = Date.UTC(2030, 0, 1);
    const v = (f: Partial<ReminderForm>) => validateForm({ ...base, ...f }, now, { requireFuture: true });
    expect(v({ kind: 'daily', interval: 365 })).toEqual({});
    expect(v({ kind: 'daily', interval: 366 }).interval).toBe('errors.intervalOutOfRange');
    expect(v({ kind: 'monthly', interval: 13 }).interval).toBe('errors.intervalOutOfRange');
    expect(v({ kind: 'yearly', interval: 0 }).interval).toBe('errors.intervalOutOfRange');
    expect(v({ kind: 'weekdays', interval: 0 })).toEqual({});
    expect(v({ kind: 'monthly', monthDay: 32 }).monthDay).toBe('errors.monthDayRange');
    expect(v({ kind: 'daily', end: 'until', until: '' }).until).toBe('errors.untilRequired');
    expect(v({ kind: 'daily', end: 'until', until: '2030-01-01' }).until).toBe('errors.untilBeforeStart');
    expect(v({ kind: 'daily', end: 'until', until: '2030-01-02' })).toEqual({});
    expect(v({ kind: 'daily', end: 'count', count: 1001 }).count).toBe('errors.countRange');
    expect(v({ kind: 'none', end: 'count', count: 0 })).toEqual({});
  });
});

describe('delivery log helpers', () => {
  it('latestLog picks the most recent occurrence', () => {
    expect(latestLog([])).toBeNull();
    const a = { id: 'a', occurrence_at: '2030-01-01T00:00:00Z' };
    const b = { id: 'b', occurrence_at: '2030-01-02T00:00:00Z' };
    expect(latestLog([a, b])).toBe(b);
    expect(latestLog([b, a])).toBe(b);
  });
  it('logStatusKey knows the usual states and leaves others raw', () => {
    expect(logStatusKey('sent')).toBe('details.state.sent');
    expect(logStatusKey('weird')).toBeNull();
  });
});

describe('alerts and repeat until done: form <-> API', () => {
  it('sends neither while they are the defaults (at the time only, no repeats)', () => {
    const input = formToInput(base);
    expect(input).not.toHaveProperty('alerts');
    expect(input).not.toHaveProperty('repeat_until_done');
  });
  it('sends the alerts longest first, with the ring at the time, and the repeat', () => {
    const input = formToInput({ ...base, alerts: [30, 1440, 30], repeatEvery: 5, repeatTimes: 3 });
    expect(input.alerts).toEqual([{ before_minutes: 1440 }, { before_minutes: 30 }, { before_minutes: 0 }]);
    expect(input.repeat_until_done).toEqual({ every_minutes: 5, max_times: 3 });
  });
  it('applies to one-time reminders too', () => {
    expect(formToInput({ ...base, kind: 'none', alerts: [60] }).alerts).toEqual([{ before_minutes: 60 }, { before_minutes: 0 }]);
  });
  it('round-trips from a stored reminder', () => {
    const r = rem('x', '2030-01-02T00:00:05Z', {
      alerts: [{ before_minutes: 0 }, { before_minutes: 30 }, { before_minutes: 1440 }],
      repeat_until_done: { every_minutes: 10, max_times: 7 },
    });
    const form = formFromReminder(r, 'UTC');
    expect(form).toMatchObject({ alerts: [1440, 30], repeatEvery: 10, repeatTimes: 7 });
    const input = formToInput(form);
    expect(input.alerts).toEqual([{ before_minutes: 1440 }, { before_minutes: 30 }, { before_minutes: 0 }]);
    expect(input.repeat_until_done).toEqual({ every_minutes: 10, max_times: 7 });
    expect(changedFields(formToInput(form), input)).toEqual({});
  });
  it('a stored reminder with the defaults opens with none', () => {
    expect(formFromReminder(rem('x', '2030-01-02T00:00:05Z', { repeat_until_done: null }), 'UTC')).toMatchObject({ alerts: [], repeatEvery: 0, repeatTimes: 3 });
    expect(alertsOf(undefined)).toEqual([]);
  });
  it('an edit that removes them sends the defaults: at the time only, and null', () => {
    const before = formToInput({ ...base, alerts: [1440], repeatEvery: 5 });
    const after = formToInput({ ...base, alerts: [], repeatEvery: 0 });
    expect(changedFields(before, after)).toEqual({ alerts: [{ before_minutes: 0 }], repeat_until_done: null });
  });
  it('an edit that adds or changes them sends only them', () => {
    const before = formToInput(base);
    expect(changedFields(before, formToInput({ ...base, alerts: [10] }))).toEqual({ alerts: [{ before_minutes: 10 }, { before_minutes: 0 }] });
    expect(changedFields(formToInput({ ...base, repeatEvery: 5 }), formToInput({ ...base, repeatEvery: 5, repeatTimes: 10 }))).toEqual({
      repeat_until_done: { every_minutes: 5, max_times: 10 },
    });
  });
  it('checks the number of repeats only while repeating', () => {
    expect(validateForm({ ...base, repeatEvery: 5, repeatTimes: 21 }, 0, { requireFuture: false }).repeatTimes).toBe('errors.repeatTimesRange');
    expect(validateForm({ ...base, repeatEvery: 0, repeatTimes: 21 }, 0, { requireFuture: false }).repeatTimes).toBeUndefined();
  });
});
