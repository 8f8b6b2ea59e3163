/**
 * The Lists dialog (opened from the switcher): create with a name and a named colour, rename and
 * recolour, delete after a confirmation that names how many reminders go with the list; the
 * default list is never deletable (and says so); a shared list only its owner changes; offline
 * everything is disabled with the reason in text; every refusal reads in the person's language.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { MemoryRouter } from '../../lib/router';
import { SWRConfig } from 'swr';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, getToasts } from '../../components/toast';
import { initI18n } from '../../i18n';
import type { Lang } from '../../lib/lang';
import type { List } from '../../lib/types';
import { LISTS, list } from '../../test/listsFixtures';
import { json, mockFetch, ok } from '../../test/renderApp';
import { tr } from '../../test/texts';
import { ListSwitcher } from './ListSwitcher';

const fail = (status: number, code: string, extra: object = {}) => json(status, { success: false, error: { code, message: 'server English', ...extra } });

async function openDialog(lang: Lang, routes: Parameters<typeof mockFetch>[0] = {}, { lists = LISTS, online = true }: { lists?: List[]; online?: boolean } = {}) {
  const i18n = initI18n(lang);
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces(['lists', 'errors', 'reminders']);
  let current = lists;
  const fetch = mockFetch({
    'GET /api/lists': () => ok(current),
    'GET /api/reminders': () => ok([]),
    ...routes,
  });
  const onSelect = vi.fn();
  render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter>
        <Suspense fallback={null}>
          <ListSwitcher selected="l-work" onSelect={onSelect} counts={{ 'l-default': 2, 'l-work': 3 }} total={5} online={online} />
        </Suspense>
      </MemoryRouter>
    </SWRConfig>,
  );
  fireEvent.click(await screen.findByRole('button', { name: tr(lang, 'lists:switcher.manage') }));
  const dialog = await screen.findByRole('dialog', { name: tr(lang, 'lists:manage.title') });
  await within(dialog).findByText(lists[0]!.name);
  return { dialog, fetch, onSelect, setLists: (l: List[]) => (current = l) };
}

const writes = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.filter(([, init]) => ['POST', 'PUT', 'DELETE'].includes(init?.method ?? 'GET')).map(([url, init]) => [`${init!.method} ${String(url)}`, init!.body ? JSON.parse(String(init!.body)) : undefined]);

beforeEach(() => clearToasts());

describe('the Lists dialog', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: delete asks first, naming the list and how many reminders go with it; then the list leaves and the page shows every list`, async () => {
      const { dialog, fetch, onSelect, setLists } = await openDialog(lang, { 'DELETE /api/lists/l-work': () => json(204, null) });
      fireEvent.click(within(dialog).getByRole('button', { name: tr(lang, 'lists:manage.deleteNamed', { name: 'Work' }) }));
      const confirm = await screen.findByRole('dialog', { name: tr(lang, 'lists:deleteConfirm.title') });
      expect(confirm).toHaveTextContent(tr(lang, 'lists:deleteConfirm.text_other', { name: 'Work', count: 3 }));
      expect(confirm).toHaveTextContent(lang === 'en' ? 'Delete “Work” and its 3 reminders?' : '「Work」とそのリマインダー3件を削除しますか？');
      expect(writes(fetch)).toEqual([]);
      setLists([LISTS[0]!]);
      fetch.mockClear();
      fireEvent.click(within(confirm).getByRole('button', { name: tr(lang, 'lists:deleteConfirm.confirm') }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: tr(lang, 'lists:deleteConfirm.title') })).toBeNull());
      expect(writes(fetch)).toEqual([['DELETE /api/lists/l-work', undefined]]);
      // lists and reminders are read again
      const reads = fetch.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === 'GET').map(([url]) => String(url).split('?')[0]);
      expect(reads).toContain('/api/lists');
      await waitFor(() => expect(within(dialog).queryByText('Work')).toBeNull());
      expect(onSelect).toHaveBeenCalledWith(null);
      expect(getToasts().map((t) => t.message)).toContain(tr(lang, 'lists:toast.deleted', { name: 'Work' }));
    });

    it(`${lang}: the default list can be renamed but has no Delete, and says why`, async () => {
      const { dialog } = await openDialog(lang);
      expect(within(dialog).queryByRole('button', { name: tr(lang, 'lists:manage.deleteNamed', { name: 'Reminders' }) })).toBeNull();
      expect(within(dialog).getByRole('button', { name: tr(lang, 'lists:manage.editNamed', { name: 'Reminders' }) })).toBeEnabled();
      expect(within(dialog).getByText(tr(lang, 'lists:manage.defaultUndeletable'))).toBeVisible();
      expect(within(dialog).getByRole('button', { name: tr(lang, 'lists:manage.deleteNamed', { name: 'Work' }) })).toBeEnabled();
    });

    it(`${lang}: offline every change is disabled, the reason in text beside them`, async () => {
      const { dialog } = await openDialog(lang, {}, { online: false });
      const reason = within(dialog).getByText(tr(lang, 'lists:manage.offline'));
      expect(reason).toBeVisible();
      const buttons = [
        within(dialog).getByRole('button', { name: tr(lang, 'lists:manage.new') }),
        within(dialog).getByRole('button', { name: tr(lang, 'lists:manage.editNamed', { name: 'Work' }) }),
        within(dialog).getByRole('button', { name: tr(lang, 'lists:manage.deleteNamed', { name: 'Work' }) }),
      ];
      for (const b of buttons) {
        expect(b).toBeDisabled();
        expect(b).toHaveAccessibleDescription(tr(lang, 'lists:manage.offline'));
      }
      expect(reason.id).not.toBe('');
    });

    it(`${lang}: a new list is sent with its trimmed name and the colour chosen by name`, async () => {
      const made = list({ id: 'l-home', name: 'Home', colour: 'green' });
      const { dialog, fetch, setLists } = await openDialog(lang, { 'POST /api/lists': () => ok(made, 201) });
      fireEvent.click(within(dialog).getByRole('button', { name: tr(lang, 'lists:manage.new') }));
      const name = within(dialog).getByLabelText(tr(lang, 'lists:form.name'));
      expect(name).toHaveFocus();
      fireEvent.change(name, { target: { value: '  Home ' } });
      // every swatch has its name; blue is the server's default
      const colours = within(dialog).getByRole('group', { name: tr(lang, 'lists:form.colour') });
      expect(within(colours).getAllByRole('radio')).toHaveLength(8);
      expect(within(colours).getByRole('radio', { name: tr(lang, 'lists:colours.blue') })).toBeChecked();
      fireEvent.click(within(colours).getByRole('radio', { name: tr(lang, 'lists:colours.green') }));
      setLists([...LISTS, made]);
      fireEvent.click(within(dialog).getByRole('button', { name: tr(lang, 'lists:form.create') }));
      await waitFor(() => expect(writes(fetch)).toEqual([['POST /api/lists', { name: 'Home', colour: 'green' }]]));
      await within(dialog).findByText('Home');
      expect(getToasts().map((t) => t.message)).toContain(tr(lang, 'lists:toast.created', { name: 'Home' }));
    });

    it(`${lang}: the name is checked before sending (required, at most 50 characters as the server counts them)`, async () => {
      const { dialog, fetch } = await openDialog(lang);
      fireEvent.click(within(dialog).getByRole('button', { name: tr(lang, 'lists:manage.new') }));
      const name = within(dialog).getByLabelText(tr(lang, 'lists:form.name'));
      fireEvent.change(name, { target: { value: '   ' } });
      fireEvent.click(within(dialog).getByRole('button', { name: tr(lang, 'lists:form.create') }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(tr(lang, 'lists:form.nameRequired'));
      expect(name).toHaveAttribute('aria-invalid', 'true');
      // 50 emoji are 50 characters (100 UTF-16 units): allowed; 51 are not
      fireEvent.change(name, { target: { value: '🍎'.repeat(51) } });
      fireEvent.click(within(dialog).getByRole('button', { name: tr(lang, 'lists:form.create') }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(tr(lang, 'lists:form.nameTooLong', { max: 50 }));
      expect(writes(fetch)).toEqual([]);
    });

    it(`${lang}: the server's refusals read in the person's language: LIST_LIMIT, the name too long, FORBIDDEN`, async () => {
      let answer = fail(409, 'LIST_LIMIT');
      const { dialog } = await openDialog(lang, {
        'POST /api/lists': () => answer,
        'PUT /api/lists/l-work': () => fail(403, 'FORBIDDEN'),
      });
      fireEvent.click(within(dialog).getByRole('button', { name: tr(lang, 'lists:manage.new') }));
      fireEvent.change(within(dialog).getByLabelText(tr(lang, 'lists:form.name')), { target: { value: 'Fifty-first' } });
      fireEvent.click(within(dialog).getByRole('button', { name: tr(lang, 'lists:form.create') }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(tr(lang, 'errors:code.LIST_LIMIT'));

      answer = fail(400, 'VALIDATION_FAILED', { details: [{ field: 'name', code: 'too_long', params: { max: 50 } }] });
      fireEvent.click(within(dialog).getByRole('button', { name: tr(lang, 'lists:form.create') }));
      await waitFor(() =>
        expect(within(dialog).getByRole('alert')).toHaveTextContent(tr(lang, 'errors:fieldCode.too_long_max', { field: tr(lang, 'errors:fieldName.name'), max: 50 })),
      );
      expect(within(dialog).getByRole('alert')).not.toHaveTextContent('server English');

      fireEvent.click(within(dialog).getByRole('button', { name: tr(lang, 'lists:form.cancel') }));
      fireEvent.click(within(dialog).getByRole('button', { name: tr(lang, 'lists:manage.editNamed', { name: 'Work' }) }));
      fireEvent.change(within(dialog).getByLabelText(tr(lang, 'lists:form.name')), { target: { value: 'Office' } });
      fireEvent.click(within(dialog).getByRole('button', { name: tr(lang, 'lists:form.save') }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(tr(lang, 'lists:errors.forbidden'));
    });
  }

  it('en: rename and recolour send only what changed', async () => {
    const { dialog, fetch } = await openDialog('en', { 'PUT /api/lists/l-work': () => ok({ ...LISTS[1], colour: 'purple' }) });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Edit “Work”' }));
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Work');
    expect(within(dialog).getByRole('radio', { name: 'Red' })).toBeChecked();
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Purple' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes(fetch)).toEqual([['PUT /api/lists/l-work', { colour: 'purple' }]]));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Edit “Work”' })).toHaveFocus());
  });

  it('en: opened, the dialog reads the lists again, so a delete names the count as it is now', async () => {
    const i18n = initI18n('en');
    await i18n.changeLanguage('en');
    await i18n.loadNamespaces(['lists', 'errors', 'reminders']);
    // Read first with Work empty (as the page read it before a reminder was added to it)...
    let current = [LISTS[0]!, { ...LISTS[1]!, active_reminders: 0 }];
    mockFetch({ 'GET /api/lists': () => ok(current), 'GET /api/reminders': () => ok([]) });
    render(
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <MemoryRouter>
          <Suspense fallback={null}>
            <ListSwitcher selected="l-work" onSelect={vi.fn()} counts={{ 'l-default': 2, 'l-work': 1 }} total={3} online />
          </Suspense>
        </MemoryRouter>
      </SWRConfig>,
    );
    fireEvent.click(await screen.findByRole('button', { name: tr('en', 'lists:switcher.manage') }));
    const dialog = await screen.findByRole('dialog', { name: tr('en', 'lists:manage.title') });
    await within(dialog).findByText('Work');
    // ...then one was added: the server says 1 now.
    current = [LISTS[0]!, { ...LISTS[1]!, active_reminders: 1 }];
    fireEvent.click(within(dialog).getByRole('button', { name: tr('en', 'common:actions.close') }));
    fireEvent.click(await screen.findByRole('button', { name: tr('en', 'lists:switcher.manage') }));
    const again = await screen.findByRole('dialog', { name: tr('en', 'lists:manage.title') });
    fireEvent.click(await within(again).findByRole('button', { name: tr('en', 'lists:manage.deleteNamed', { name: 'Work' }) }));
    const confirm = await screen.findByRole('dialog', { name: tr('en', 'lists:deleteConfirm.title') });
    await waitFor(() => expect(confirm).toHaveTextContent(tr('en', 'lists:deleteConfirm.text_one', { name: 'Work', count: 1 })));
  });

  it('en: a list with no reminders says so in its confirmation', async () => {
    const { dialog } = await openDialog('en', {}, { lists: [LISTS[0]!, list({ id: 'l-empty', name: 'Someday', active_reminders: 0 })] });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete “Someday”' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this list?' });
    expect(confirm).toHaveTextContent('Delete “Someday”? It has no reminders.');
  });

  it('ja: one reminder reads in the singular form the language has', async () => {
    const { dialog } = await openDialog('ja', {}, { lists: [LISTS[0]!, list({ id: 'l-one', name: '薬', active_reminders: 1 })] });
    fireEvent.click(within(dialog).getByRole('button', { name: '「薬」を削除' }));
    expect(await screen.findByRole('dialog', { name: 'リストを削除しますか？' })).toHaveTextContent('「薬」とそのリマインダー1件を削除しますか？');
  });

  it("en: a list shared with the person has no Edit or Delete: only its owner changes it", async () => {
    const { dialog } = await openDialog('en', {}, { lists: [LISTS[0]!, list({ id: 'l-family', name: 'Family', role: 'member', owner_id: 'u2', members: 3 })] });
    expect(within(dialog).queryByRole('button', { name: 'Edit “Family”' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Delete “Family”' })).toBeNull();
    expect(within(dialog).getByText('Shared with you: only its owner can rename or delete it.')).toBeVisible();
  });

  it('en: a delete the server refuses stays asked, with the reason', async () => {
    const { dialog } = await openDialog('en', { 'DELETE /api/lists/l-work': () => fail(400, 'DEFAULT_LIST') });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete “Work”' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this list?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete list' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent(tr('en', 'errors:code.DEFAULT_LIST'));
  });
});
