/**
 * The reminder dialog opens with focus in its first field (the title), not on its heading; Escape
 * with unsaved changes asks before discarding them (in ja and en); Escape with none closes.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, useState } from 'react';
import { MemoryRouter } from '../../../lib/router';
import { describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../i18n';
import { mockFetch, ok } from '../../../test/renderApp';
import { ReminderDialog } from './ReminderDialog';
import { emptyForm } from '../reminderLogic';

const INITIAL = emptyForm('Asia/Tokyo', Date.parse('2030-01-01T00:00:00Z'));

function Host({ onClose }: { onClose: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <main>
      <h1>Reminders</h1>
      <button type="button" onClick={() => setOpen(true)}>
        open
      </button>
      <ReminderDialog
        open={open}
        initial={INITIAL}
        editing={null}
        onClose={() => {
          onClose();
          setOpen(false);
        }}
        onSave={async () => {}}
        deviceNotice={null}
      />
    </main>
  );
}

async function renderHost(lang: 'ja' | 'en') {
  const i18n = initI18n(lang);
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces('reminders');
  mockFetch({ 'POST /api/reminders/preview': () => ok({ occurrences: ['2030-01-07T00:00:00Z'] }) });
  const onClose = vi.fn();
  render(
    <MemoryRouter>
      <Suspense fallback={null}>
        <Host onClose={onClose} />
      </Suspense>
    </MemoryRouter>,
  );
  const user = userEvent.setup();
  const opener = await screen.findByRole('button', { name: 'open' });
  await user.click(opener);
  await screen.findByRole('dialog');
  return { user, opener, onClose, t: i18n.getFixedT(lang, 'reminders') };
}

describe('ReminderDialog: first focus and Escape with a draft', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: opens with focus in the title field`, async () => {
      const { t } = await renderHost(lang);
      expect(screen.getByLabelText(t('fields.title'))).toHaveFocus();
      expect(screen.getByRole('heading', { name: t('dialog.createTitle') })).not.toHaveFocus();
    });

    it(`${lang}: Escape with unsaved changes asks; keeping goes on editing, discarding closes`, async () => {
      const { user, opener, onClose, t } = await renderHost(lang);
      const title = screen.getByLabelText(t('fields.title'));
      await user.type(title, lang === 'ja' ? '歯医者' : 'Dentist');
      await user.keyboard('{Escape}');
      const ask = await screen.findByRole('dialog', { name: t('dialog.discardTitle') });
      expect(ask).toHaveTextContent(t('dialog.discardText'));
      expect(onClose).not.toHaveBeenCalled();

      await user.click(screen.getByRole('button', { name: t('dialog.discardKeep') }));
      expect(screen.queryByRole('dialog', { name: t('dialog.discardTitle') })).toBeNull();
      expect(title).toHaveValue(lang === 'ja' ? '歯医者' : 'Dentist');
      expect(title).toHaveFocus();

      await user.keyboard('{Escape}');
      await user.click(await screen.findByRole('button', { name: t('dialog.discardConfirm') }));
      expect(onClose).toHaveBeenCalledTimes(1);
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(opener).toHaveFocus();
    });
  }

  it('Escape with nothing changed closes at once; Cancel never asks', async () => {
    const { user, onClose, t } = await renderHost('en');
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'open' }));
    await user.type(await screen.findByLabelText(t('fields.title')), 'x');
    await user.click(screen.getByRole('button', { name: t('dialog.cancel') }));
    expect(onClose).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
