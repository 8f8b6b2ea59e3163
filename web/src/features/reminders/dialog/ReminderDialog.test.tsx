/**
 * The reminder form: a field's error is checked again as the field changes (it goes once fixed),
 * and the preview names the real problem (no day chosen) in both languages.
 */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { MemoryRouter } from '../../../lib/router';
import { describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../i18n';
import { mockFetch, ok } from '../../../test/renderApp';
import { ReminderDialog } from './ReminderDialog';
import { emptyForm } from '../reminderLogic';

async function renderDialog(lang: 'ja' | 'en') {
  const i18n = initI18n(lang);
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces('reminders');
  const fetch = mockFetch({ 'POST /api/reminders/preview': () => ok({ occurrences: ['2030-01-07T00:00:00Z'] }) });
  const onSave = vi.fn(async () => {});
  render(
    <MemoryRouter>
      <Suspense fallback={null}>
        <ReminderDialog open initial={emptyForm('Asia/Tokyo', Date.now())} editing={null} onClose={() => {}} onSave={onSave} deviceNotice={null} />
      </Suspense>
    </MemoryRouter>,
  );
  await screen.findByRole('dialog');
  return { onSave, fetch, t: i18n.getFixedT(lang, 'reminders') };
}

describe('ReminderDialog', () => {
  it('a title error goes as soon as a title is typed', async () => {
    const user = userEvent.setup();
    const { onSave, t } = await renderDialog('en');
    await user.click(screen.getByRole('button', { name: t('dialog.save') }));
    expect(await screen.findByText(t('errors.titleRequired'))).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText(t('fields.title')), 'W');
    await waitFor(() => expect(screen.queryByText(t('errors.titleRequired'))).toBeNull());
    expect(screen.getByLabelText(t('fields.title'))).not.toHaveAttribute('aria-invalid');
    // cleared again: no error until the next save attempt
    await user.clear(screen.getByLabelText(t('fields.title')));
    expect(screen.queryByText(t('errors.titleRequired'))).toBeNull();
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: custom days with none chosen: the error and the preview say to choose a day, and go once one is`, async () => {
      const user = userEvent.setup();
      const { t } = await renderDialog(lang);
      await user.type(screen.getByLabelText(t('fields.title')), 'Gym');
      await user.selectOptions(screen.getByLabelText(t('fields.recurrence')), 'custom');
      const preview = screen.getByRole('region', { name: t('dialog.preview') });
      await waitFor(() => expect(preview).toHaveTextContent(t('errors.daysRequired')));
      expect(preview).not.toHaveTextContent(t('dialog.previewEmpty'));
      await user.click(screen.getByRole('button', { name: t('dialog.save') }));
      expect(await screen.findByRole('alert')).toHaveTextContent(t('errors.daysRequired'));
      await user.click(screen.getByRole('checkbox', { name: t('weekdays.mon') }));
      await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
      await waitFor(() => expect(preview).not.toHaveTextContent(t('errors.daysRequired')));
    });
  }
});
