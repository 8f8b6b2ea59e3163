/**
 * A reminder's trigger links: folded until opened (the list loads then); the list says when
 * each was made and last used; Create shows the URL once (Copy, QR code), and the list never
 * shows it; a link is deleted after asking; at the limit (5, or the server's TRIGGER_LIMIT)
 * Create waits and says why; offline it says why too.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { MemoryRouter } from '../../../lib/router';
import { SWRConfig } from 'swr';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../../../components/toast';
import { initI18n } from '../../../i18n';
import { json, mockFetch, ok } from '../../../test/renderApp';
import { tr } from '../../../test/texts';
import TriggerLinks from './TriggerLinks';
import type { Trigger } from './triggersApi';

const URL = 'http://localhost:8080/t/s3cr3t-s3cr3t';
const link = (id: string, extra: Partial<Trigger> = {}): Trigger => ({ id, created_at: '2029-12-01T00:00:00Z', last_used_at: null, ...extra });

function server(initial: Trigger[], create: () => Response = () => ok({ id: 'new', url: URL }, 201)) {
  let list = [...initial];
  const calls: string[] = [];
  mockFetch({
    'GET /api/reminders/r1/triggers': () => ok(list),
    'POST /api/reminders/r1/triggers': () => {
      calls.push('POST');
      const res = create();
      if (res.status === 201) list = [...list, link('new')];
      return res;
    },
    ...Object.fromEntries(
      ['t1', 't2', 'new'].map((id) => [
        `DELETE /api/reminders/r1/triggers/${id}`,
        () => {
          calls.push(`DELETE ${id}`);
          list = list.filter((x) => x.id !== id);
          return json(204, null);
        },
      ]),
    ),
  });
  return calls;
}

function renderLinks(online = true) {
  render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter initialEntries={['/en/reminders']}>
        <Suspense fallback={null}>
          <TriggerLinks reminderId="r1" title="Medicine" online={online} />
        </Suspense>
      </MemoryRouter>
    </SWRConfig>,
  );
}

const t = (id: string, params?: Record<string, string | number>) => tr('en', `automations:${id}`, params);

async function open() {
  fireEvent.click(await screen.findByText(t('links.title')));
}

beforeAll(async () => {
  const i18n = initI18n('en');
  await i18n.changeLanguage('en');
  await i18n.loadNamespaces(['automations', 'errors']);
  await import('./TriggerQr');
});
beforeEach(() => {
  clearToasts();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

describe('trigger links', () => {
  it('lists the links when opened: when made, last used or never; no URL', async () => {
    server([link('t1', { last_used_at: '2029-12-02T00:00:00Z' }), link('t2')]);
    renderLinks();
    await open();
    const list = await screen.findByRole('list', { name: t('links.listLabel') });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent(/Last used /);
    expect(items[1]).toHaveTextContent(t('links.neverUsed'));
    expect(document.body).not.toHaveTextContent('/t/');
    // the steps for Shortcuts, Home Assistant and NFC tags / QR codes
    expect(screen.getByText(t('howto.shortcuts.title'))).toBeInTheDocument();
    expect(screen.getByText(t('howto.homeAssistant.title'))).toBeInTheDocument();
    expect(screen.getByText(t('howto.nfc.title'))).toBeInTheDocument();
  });

  it('Create shows the URL once, with Copy and its QR code; hidden, it is nowhere', async () => {
    const calls = server([]);
    renderLinks();
    await open();
    await screen.findByText(t('links.none'));
    fireEvent.click(screen.getByRole('button', { name: t('links.create') }));
    const field = await screen.findByLabelText(t('links.urlLabel'));
    expect(field).toHaveValue(URL);
    expect(screen.getByText(t('links.once'))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: t('links.copy') })).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: t('links.qrAlt', { title: 'Medicine' }) })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: t('links.print') })).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('list', { name: t('links.listLabel') })).getAllByRole('listitem')).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: t('links.close') }));
    expect(screen.queryByDisplayValue(URL)).toBeNull();
    expect(calls).toEqual(['POST']);
  });

  it('deletes a link after asking', async () => {
    const calls = server([link('t1'), link('t2')]);
    renderLinks();
    await open();
    fireEvent.click(await screen.findByRole('button', { name: t('links.removeLabel', { n: 2 }) }));
    const dialog = await screen.findByRole('dialog', { name: t('links.removeTitle') });
    expect(calls).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: t('links.remove') }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: t('links.listLabel') })).getAllByRole('listitem')).toHaveLength(1));
    expect(calls).toEqual(['DELETE t2']);
  });

  it('at 5 links Create waits and says why', async () => {
    server(['a', 'b', 'c', 'd', 'e'].map((id) => link(id)));
    renderLinks();
    await open();
    await screen.findByRole('list', { name: t('links.listLabel') });
    expect(screen.getByRole('button', { name: t('links.create') })).toBeDisabled();
    expect(screen.getByText(t('links.limit'))).toBeInTheDocument();
  });

  it("the server's TRIGGER_LIMIT says the limit", async () => {
    server([link('t1')], () => json(409, { success: false, error: { code: 'TRIGGER_LIMIT', message: 'limit' } }));
    renderLinks();
    await open();
    await screen.findByRole('list', { name: t('links.listLabel') });
    fireEvent.click(screen.getByRole('button', { name: t('links.create') }));
    expect(await screen.findByText(t('links.limit'))).toBeInTheDocument();
    expect(screen.queryByLabelText(t('links.urlLabel'))).toBeNull();
  });

  it('offline: Create and Delete wait, and say why', async () => {
    server([link('t1')]);
    renderLinks(false);
    await open();
    await screen.findByRole('list', { name: t('links.listLabel') });
    const create = screen.getByRole('button', { name: t('links.create') });
    expect(create).toBeDisabled();
    expect(create).toHaveAccessibleDescription(t('links.offline'));
    expect(screen.getByRole('button', { name: t('links.removeLabel', { n: 1 }) })).toBeDisabled();
  });
});
