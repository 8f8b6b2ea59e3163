/** Header menus and popovers: one at a time; Escape closes and returns focus; a click outside closes. */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from '../lib/router';
import { describe, expect, it } from 'vitest';
import { usePopover } from './usePopover';

function Popover({ name }: { name: string }) {
  const { open, toggle, root, trigger } = usePopover<HTMLDivElement, HTMLButtonElement>();
  return (
    <div ref={root}>
      <button type="button" ref={trigger} aria-expanded={open} onClick={toggle}>
        {name}
      </button>
      {open && (
        <div role="region" aria-label={`${name} panel`}>
          <a href="#x">{name} link</a>
        </div>
      )}
    </div>
  );
}

function Header() {
  return (
    <MemoryRouter>
      <Popover name="Health" />
      <Popover name="Menu" />
      <p>Page text</p>
    </MemoryRouter>
  );
}

describe('usePopover', () => {
  it('opening one closes the other', async () => {
    const user = userEvent.setup();
    render(<Header />);
    await user.click(screen.getByRole('button', { name: 'Health' }));
    expect(screen.getByRole('region', { name: 'Health panel' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    expect(screen.getByRole('region', { name: 'Menu panel' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Health panel' })).toBeNull();
  });

  it('Escape closes it and puts focus back on its button', async () => {
    const user = userEvent.setup();
    render(<Header />);
    const menu = screen.getByRole('button', { name: 'Menu' });
    await user.click(menu);
    screen.getByRole('link', { name: 'Menu link' }).focus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Menu panel' })).toBeNull();
    expect(menu).toHaveFocus();
  });

  it('a click outside closes it', async () => {
    const user = userEvent.setup();
    render(<Header />);
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await user.click(screen.getByText('Page text'));
    expect(screen.queryByRole('region', { name: 'Menu panel' })).toBeNull();
  });
});
