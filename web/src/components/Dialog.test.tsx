/**
 * The modal dialog: focus goes to its first field (its title when it has none), Tab and Shift+Tab stay inside, Escape closes (not
 * while an IME composes; only the topmost of two), focus returns to the opener or, when that is
 * gone, to the page's heading; toasts move inside the open dialog; with unsaved changes, Escape,
 * × and a click outside ask before discarding them.
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, useState } from 'react';
import { MemoryRouter } from '../lib/router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../i18n';
import { Dialog } from './Dialog';
import { Toaster } from './Toaster';
import { clearToasts, toast } from './toast';

beforeAll(async () => {
  const i18n = initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(() => act(() => clearToasts()));

const DISCARD = { title: 'Discard your changes?', text: 'Not saved yet.', keep: 'Keep editing', confirm: 'Discard' };

function Page({ nested = false, removeOpener = false, fields = true }: { nested?: boolean; removeOpener?: boolean; fields?: boolean }) {
  const [draft, setDraft] = useState('');
  const [open, setOpen] = useState(false);
  const [inner, setInner] = useState(false);
  const [openerShown, setOpenerShown] = useState(true);
  return (
    <MemoryRouter>
      <main id="main" tabIndex={-1}>
        <h1>Reminders</h1>
        <button type="button">Before</button>
        {openerShown && (
          <button type="button" onClick={() => setOpen(true)}>
            Open
          </button>
        )}
        <Dialog
          open={open}
          title="Edit reminder"
          onClose={() => {
            setOpen(false);
            setDraft('');
            if (removeOpener) setOpenerShown(false);
          }}
          discard={draft ? DISCARD : null}
          footer={
            <button type="button" onClick={() => setInner(true)}>
              Save
            </button>
          }
        >
          {fields ? (
            <>
              <p>Some words first.</p>
              <label htmlFor="f-title">Title</label>
              <input id="f-title" value={draft} onChange={(e) => setDraft(e.target.value)} />
            </>
          ) : (
            <p>Are you sure?</p>
          )}
          {nested && (
            <Dialog open={inner} title="Delete?" onClose={() => setInner(false)}>
              <button type="button">Confirm</button>
            </Dialog>
          )}
        </Dialog>
        <button type="button">After</button>
      </main>
      <Toaster />
    </MemoryRouter>
  );
}

const renderPage = (props: Parameters<typeof Page>[0] = {}) =>
  render(
    <Suspense fallback={null}>
      <Page {...props} />
    </Suspense>,
  );

describe('Dialog', () => {
  it('focuses its first field on open; Tab and Shift+Tab go round inside it', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit reminder' });
    const close = screen.getByRole('button', { name: 'Close' });
    const title = screen.getByLabelText('Title');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(title).toHaveFocus();

    await user.tab();
    expect(save).toHaveFocus();
    // past the last element: back to the first, never to the page behind
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab();
    expect(title).toHaveFocus();
    await user.tab({ shift: true });
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(save).toHaveFocus();
    for (let i = 0; i < 10; i++) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
  });

  it('a dialog without fields focuses its title; Shift+Tab from it goes to the last element', async () => {
    const user = userEvent.setup();
    renderPage({ fields: false });
    await user.click(await screen.findByRole('button', { name: 'Open' }));
    expect(screen.getByRole('heading', { name: 'Edit reminder' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Save' })).toHaveFocus();
  });

  it('with unsaved changes, Escape asks first: "Keep editing" goes back to the field, "Discard" closes', async () => {
    const user = userEvent.setup();
    renderPage();
    const opener = await screen.findByRole('button', { name: 'Open' });
    await user.click(opener);
    const title = screen.getByLabelText('Title');
    await user.type(title, 'Dentist');

    await user.keyboard('{Escape}');
    const ask = screen.getByRole('dialog', { name: 'Discard your changes?' });
    expect(ask).toHaveTextContent('Not saved yet.');
    expect(screen.getByRole('dialog', { name: 'Edit reminder' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Keep editing' }));
    expect(screen.queryByRole('dialog', { name: 'Discard your changes?' })).toBeNull();
    expect(title).toHaveValue('Dentist');
    expect(title).toHaveFocus();

    // Escape in the question is "keep editing" too.
    await user.keyboard('{Escape}');
    await screen.findByRole('dialog', { name: 'Discard your changes?' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Discard your changes?' })).toBeNull();
    expect(screen.getByLabelText('Title')).toHaveValue('Dentist');

    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener).toHaveFocus();
  });

  it('with unsaved changes, × and a click outside ask too; with none, Escape closes at once', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Open' }));
    await user.type(screen.getByLabelText('Title'), 'x');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await user.click(await screen.findByRole('button', { name: 'Keep editing' }));
    fireEvent.mouseDown(document.querySelector('.dialog-backdrop')!);
    await user.click(await screen.findByRole('button', { name: 'Keep editing' }));
    await user.clear(screen.getByLabelText('Title'));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Escape closes it and focus returns to the button that opened it', async () => {
    const user = userEvent.setup();
    renderPage();
    const opener = await screen.findByRole('button', { name: 'Open' });
    await user.click(opener);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener).toHaveFocus();
  });

  it('Escape while an IME composes does not close it', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Open' }));
    const title = screen.getByLabelText('Title');
    title.focus();
    fireEvent.keyDown(title, { key: 'Escape', isComposing: true });
    fireEvent.keyDown(title, { key: 'Escape', keyCode: 229 });
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('an Escape a widget inside has used (preventDefault) does not close it', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Open' }));
    const title = screen.getByLabelText('Title');
    title.addEventListener('keydown', (e) => e.key === 'Escape' && e.preventDefault());
    title.focus();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('with two open, Escape closes only the top one; focus goes back into the first', async () => {
    const user = userEvent.setup();
    renderPage({ nested: true });
    await user.click(await screen.findByRole('button', { name: 'Open' }));
    const save = screen.getByRole('button', { name: 'Save' });
    await user.click(save);
    expect(screen.getByRole('heading', { name: 'Delete?' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Delete?' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Edit reminder' })).toBeInTheDocument();
    expect(save).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('when the opener is gone, focus goes to the page heading, not to <body>', async () => {
    const user = userEvent.setup();
    renderPage({ removeOpener: true });
    await user.click(await screen.findByRole('button', { name: 'Open' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Reminders' })).toHaveFocus());
  });

  it('toasts show inside the open dialog, and back in the corner once it closes', async () => {
    const user = userEvent.setup();
    renderPage();
    act(() => void toast.success('Saved before'));
    const corner = () => document.querySelector('.toaster:not(.in-dialog)');
    expect(corner()).toHaveTextContent('Saved before');
    await user.click(await screen.findByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog');
    await waitFor(() => expect(dialog.querySelector('.toaster.in-dialog')).toHaveTextContent('Saved before'));
    expect(corner()).toBeNull();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(corner()).toHaveTextContent('Saved before'));
  });
});
