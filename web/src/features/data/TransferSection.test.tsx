/**
 * Settings → Export and import (api.md "Tokens, triggers, export and import"): Export saves the
 * export's `data` as hibiki-export-YYYY-MM-DD.json; choosing a file runs the dry run only
 * (dry_run=true, the file as it is with its content type) and lists what would be imported and
 * what would be skipped, each reason in words; Import (dry_run=false) is sent only when pressed,
 * Cancel sends nothing; a file over 1 MiB is refused unsent; a file that is neither reads so.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, getToasts } from '../../components/toast';
import { resetAuthForTests } from '../../lib/authStore';
import type { Lang } from '../../lib/lang';
import type { Settings, User } from '../../lib/types';
import { json, mockFetch, ok, preloadApp, renderApp, type Handler } from '../../test/renderApp';
import { tr } from '../../test/texts';
import { MAX_IMPORT_BYTES, type ExportDocument, type ImportReport } from './dataApi';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const SETTINGS: Settings = {
  timezone: 'Asia/Tokyo', language: 'ja', default_snooze_minutes: 10, speak_titles: false, hide_notification_content: false,
  email_fallback_minutes: 5, morning_time: '08:00', evening_time: '18:00', quiet_hours: null, daily_brief: null,
};
const prefix = (lang: Lang) => (lang === 'en' ? '/en' : '');
const toasts = () => getToasts().map((t) => t.message);

const DRY: ImportReport = {
  imported: 2,
  dry_run: true,
  items: [
    { item: 'uid-1@example', title: 'Team meeting', next_at: '2030-01-07T01:00:00Z', recurring: true, reminder_id: null },
    { item: 'uid-2@example', title: 'Dentist', next_at: '2030-02-01T06:30:00Z', recurring: false, reminder_id: null },
  ],
  skipped: [
    { item: 'uid-3@example', title: 'Drink water', reason: 'unsupported_rule', detail: 'FREQ=MINUTELY' },
    { item: 'uid-4@example', title: 'Old party', reason: 'past' },
    { item: 'uid-5@example', title: 'One too many', reason: 'limit' },
    { item: 'uid-6@example', title: null, reason: 'invalid', detail: 'no start time' },
  ],
};
const DONE: ImportReport = { ...DRY, dry_run: false, items: DRY.items.map((i, n) => ({ ...i, reminder_id: `r-${n}` })) };

interface ImportCall {
  dryRun: string | null;
  type: string | undefined;
  body: unknown;
}

function server(routes: Record<string, Handler> = {}) {
  const imports: ImportCall[] = [];
  const fetchMock = mockFetch({
    'GET /api/settings': () => ok(SETTINGS),
    'GET /api/notifications/subscriptions': () => ok([]),
    'GET /api/auth/sessions': () => ok([]),
    'GET /api/channels': () => ok([]),
    'GET /api/tokens': () => ok([]),
    'POST /api/import': (url, init) => {
      const dryRun = new URL(url, 'http://x').searchParams.get('dry_run');
      imports.push({ dryRun, type: (init.headers as Record<string, string>)['Content-Type'], body: init.body });
      if (routes['POST /api/import']) return routes['POST /api/import'](url, init);
      return ok(dryRun === 'true' ? DRY : DONE);
    },
    ...routes,
  });
  return { imports, fetchMock };
}

async function open(lang: Lang) {
  renderApp(`${prefix(lang)}/settings`);
  return screen.findByRole('region', { name: tr(lang, 'data:transfer.title') }, { timeout: 10_000 });
}

const ics = (name = 'calendar.ics') => new File(['BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n'], name, { type: 'text/calendar' });

function choose(lang: Lang, section: HTMLElement, file: File) {
  fireEvent.change(within(section).getByLabelText(tr(lang, 'data:transfer.importLabel')), { target: { files: [file] } });
}

beforeAll(preloadApp, 120_000);
beforeEach(() => {
  clearToasts();
  resetAuthForTests({ user: USER, status: 'signedIn' });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

describe('Settings: export and import', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: a file's dry run lists what would be imported and what is skipped, each reason in words; Import sends dry_run=false only when pressed`, async () => {
      const { imports } = server();
      const section = await open(lang);
      const file = ics();
      choose(lang, section, file);

      const report = await within(section).findByRole('region', { name: tr(lang, 'data:transfer.previewTitle', { name: 'calendar.ics' }) });
      expect(imports).toEqual([{ dryRun: 'true', type: 'text/calendar', body: file }]);
      expect(within(report).getByText(tr(lang, 'data:transfer.previewNote'))).toBeVisible();
      expect(within(report).getByRole('heading', { name: tr(lang, 'data:transfer.willImport', { count: 2 }) })).toBeVisible();
      const [meeting, dentist] = within(report).getAllByRole('list')[0]!.querySelectorAll('li');
      expect(meeting).toHaveTextContent('Team meeting');
      expect(meeting).toHaveTextContent(tr(lang, 'data:transfer.repeats'));
      expect(meeting!.textContent).toMatch(new RegExp(tr(lang, 'data:transfer.next', { when: '' }).trim()));
      expect(dentist).toHaveTextContent('Dentist');
      expect(dentist).toHaveTextContent(tr(lang, 'data:transfer.once'));

      expect(within(report).getByRole('heading', { name: tr(lang, 'data:transfer.skippedTitle', { count: 4 }) })).toBeVisible();
      const skipped = within(report).getAllByRole('list')[1]!;
      for (const reason of ['past', 'unsupported_rule', 'limit', 'invalid'] as const) {
        expect(within(skipped).getByText(tr(lang, `data:transfer.reason.${reason}`))).toBeVisible();
      }
      expect(within(skipped).getByText(tr(lang, 'data:transfer.detail', { detail: 'FREQ=MINUTELY' }))).toBeVisible();
      expect(skipped).toHaveTextContent('Drink water');
      expect(skipped).toHaveTextContent('uid-6@example');

      // nothing is saved until Import is pressed
      expect(imports).toHaveLength(1);
      fireEvent.click(within(report).getByRole('button', { name: tr(lang, 'data:transfer.import_other', { count: 2 }) }));
      const done = await within(section).findByRole('region', { name: tr(lang, 'data:transfer.doneTitle', { name: 'calendar.ics' }) });
      expect(imports).toHaveLength(2);
      expect(imports[1]).toEqual({ dryRun: 'false', type: 'text/calendar', body: file });
      expect(within(done).getByRole('status')).toHaveTextContent(tr(lang, 'data:transfer.imported_other', { count: 2 }));
      expect(within(done).queryByRole('button', { name: tr(lang, 'data:transfer.import_other', { count: 2 }) })).toBeNull();
      fireEvent.click(within(done).getByRole('button', { name: tr(lang, 'data:transfer.close') }));
      await waitFor(() => expect(within(section).queryByRole('region')).toBeNull());
    });
  }

  it('en: Cancel after the dry run sends nothing more; a .json file goes as application/json', async () => {
    const { imports } = server();
    const section = await open('en');
    choose('en', section, new File(['{"version":1}'], 'hibiki-export.json', { type: '' }));
    const report = await within(section).findByRole('region', { name: tr('en', 'data:transfer.previewTitle', { name: 'hibiki-export.json' }) });
    expect(imports.map((c) => [c.dryRun, c.type])).toEqual([['true', 'application/json']]);
    fireEvent.click(within(report).getByRole('button', { name: tr('en', 'data:transfer.cancel') }));
    await waitFor(() => expect(within(section).queryByRole('region')).toBeNull());
    expect(imports).toHaveLength(1);
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: a file over 1 MiB is refused in the browser, unsent`, async () => {
      const { imports } = server();
      const section = await open(lang);
      const big = new File([new Uint8Array(MAX_IMPORT_BYTES + 1)], 'huge.ics', { type: 'text/calendar' });
      choose(lang, section, big);
      const alert = await within(section).findByRole('alert');
      expect(alert.textContent).toContain(tr(lang, 'data:transfer.tooBig', { name: 'huge.ics', size: '' }).split('{{')[0]!.slice(0, 6));
      expect(alert).toHaveTextContent('huge.ics');
      expect(imports).toHaveLength(0);
    });
  }

  it('ja: a file that is neither an export nor a calendar says so', async () => {
    server({ 'POST /api/import': () => json(400, { success: false, error: { code: 'INVALID_JSON', message: 'bad json' } }) });
    const section = await open('ja');
    choose('ja', section, new File(['hello'], 'notes.json', { type: 'application/json' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(tr('ja', 'data:transfer.notReadable', { name: 'notes.json' }));
  });

  it('en: nothing importable: Import is not offered as a choice', async () => {
    server({ 'POST /api/import': () => ok({ imported: 0, dry_run: true, items: [], skipped: [DRY.skipped[1]] }) });
    const section = await open('en');
    choose('en', section, ics('old.ics'));
    const report = await within(section).findByRole('region', { name: tr('en', 'data:transfer.previewTitle', { name: 'old.ics' }) });
    expect(within(report).getByText(tr('en', 'data:transfer.nothingToImport'))).toBeVisible();
    expect(within(report).getByRole('button', { name: tr('en', 'data:transfer.import_other', { count: 0 }) })).toBeDisabled();
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: Export saves the export as hibiki-export-YYYY-MM-DD.json`, async () => {
      const doc: ExportDocument = { version: 1, exported_at: '2026-03-01T00:00:00Z', lists: [], reminders: [] };
      server({ 'GET /api/export': () => ok(doc) });
      const blobs: Blob[] = [];
      const createObjectURL = vi.fn((b: Blob) => (blobs.push(b), 'blob:export'));
      Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
      const clicked: { href: string; download: string }[] = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        clicked.push({ href: this.href, download: this.download });
      });
      const section = await open(lang);
      fireEvent.click(within(section).getByRole('button', { name: tr(lang, 'data:transfer.export') }));
      await waitFor(() => expect(clicked).toHaveLength(1));
      expect(clicked[0]!.download).toMatch(/^hibiki-export-\d{4}-\d{2}-\d{2}\.json$/);
      expect(clicked[0]!.href).toBe('blob:export');
      const text = await new Promise<string>((resolve) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.readAsText(blobs[0]!);
      });
      expect(JSON.parse(text)).toEqual(doc);
      expect(toasts()).toContain(tr(lang, 'data:transfer.exported', { file: clicked[0]!.download }));
    });
  }
});
