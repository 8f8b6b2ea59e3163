import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter } from '../lib/router';
import { describe, expect, it, vi } from 'vitest';
import { initI18n } from '../i18n';
import { TimeZoneSelect } from './TimeZoneSelect';

function Form({ path, initial, onSubmit, onEscape }: { path: string; initial: string; onSubmit: () => void; onEscape?: () => void }) {
  const [zone, setZone] = useState(initial);
  return (
    <MemoryRouter initialEntries={[path]}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
        onKeyDown={(e) => e.key === 'Escape' && onEscape?.()}
      >
        <label htmlFor="tz">Zone</label>
        <TimeZoneSelect id="tz" value={zone} onChange={setZone} />
        <output data-testid="value">{zone}</output>
      </form>
    </MemoryRouter>
  );
}

function setup(lang: 'ja' | 'en', initial: string) {
  const i18n = initI18n(lang);
  void i18n.changeLanguage(lang);
  const onSubmit = vi.fn();
  const onEscape = vi.fn();
  render(<Form path={lang === 'ja' ? '/settings' : '/en/settings'} initial={initial} onSubmit={onSubmit} onEscape={onEscape} />);
  return { user: userEvent.setup(), input: screen.getByRole('combobox', { name: 'Zone' }), onSubmit, onEscape };
}

const value = () => screen.getByTestId('value').textContent;

// Pasted queries: one change event each (typing is tried key by key in the e2e test).
describe('TimeZoneSelect', () => {
  it('ja: shows the city and offset closed; 東京 typed, Enter picks Asia/Tokyo without submitting', async () => {
    const { user, input, onSubmit } = setup('ja', 'America/New_York');
    expect((input as HTMLInputElement).value).toMatch(/^ニューヨーク \(UTC\u22120[45]:00\)$/);
    expect(input).toHaveAttribute('aria-expanded', 'false');
    await user.click(input);
    await user.paste('東京');
    const list = await screen.findByRole('listbox', { name: 'タイムゾーン' });
    expect(input).toHaveAttribute('aria-expanded', 'true');
    const first = (await within(list).findAllByRole('option'))[0]!;
    expect(first).toHaveTextContent('東京 (UTC+09:00)');
    expect(input).toHaveAttribute('aria-activedescendant', first.id);
    await user.keyboard('{Enter}');
    expect(value()).toBe('Asia/Tokyo');
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(input).toHaveValue('東京 (UTC+09:00)');
  });

  it('en: "new york" then the arrows and Enter; Escape closes the list only', async () => {
    const { user, input, onEscape } = setup('en', 'Asia/Tokyo');
    expect(input).toHaveValue('Tokyo (UTC+09:00)');
    await user.click(input);
    await user.paste('new york');
    const list = await screen.findByRole('listbox', { name: 'Time zones' });
    const options = await within(list).findAllByRole('option');
    expect(options[0]).toHaveTextContent(/^New York \(UTC\u22120[45]:00\)America\/New_York$/);
    await user.keyboard('{ArrowDown}{ArrowUp}{Enter}');
    expect(value()).toBe('America/New_York');

    // Escape with the list open closes it and goes no further (a dialog around stays open).
    await user.keyboard('{ArrowDown}');
    await screen.findByRole('listbox');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(onEscape).not.toHaveBeenCalled();
    expect(value()).toBe('America/New_York');
    // Closed, Escape is the page's again.
    await user.keyboard('{Escape}');
    expect(onEscape).toHaveBeenCalledTimes(1);
  });

  it('opened unsearched: the user’s and common zones first in a group, the current zone active', async () => {
    const { user, input } = setup('en', 'Europe/Paris');
    await user.click(input);
    const common = await screen.findByRole('group', { name: 'Your and common time zones' });
    expect(within(common).getAllByRole('option').map((o) => o.textContent)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Tokyo \(UTC\+09:00\)/), expect.stringMatching(/^UTC|^Coordinated Universal Time/)]),
    );
    expect(screen.getByRole('group', { name: 'All time zones' })).toBeInTheDocument();
    const active = document.getElementById(input.getAttribute('aria-activedescendant')!)!;
    expect(active).toHaveTextContent(/^Paris/);
    expect(active).toHaveAttribute('aria-selected', 'true');
  });

  it('a click on an option picks it; nothing found says so', async () => {
    const { user, input } = setup('ja', 'Asia/Tokyo');
    await user.click(input);
    await user.paste('calcutta');
    await user.click(await screen.findByRole('option', { name: /^コルカタ \(UTC\+05:30\)/ }));
    expect(value()).toBe('Asia/Kolkata');
    await user.click(input);
    await user.paste('zzzz');
    expect(await screen.findByText('一致するタイムゾーンがありません', { selector: '[role=status]' })).toBeInTheDocument();
    fireEvent.blur(input);
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    expect(value()).toBe('Asia/Kolkata');
  });

  it('a stored legacy id is shown under its canonical name', async () => {
    const { input } = setup('en', 'Asia/Calcutta');
    await waitFor(() => expect(input).toHaveValue('Kolkata (UTC+05:30)'));
  });
});
