/**
 * preventImeSubmit cancels the Enter that confirms an IME composition (isComposing, or
 * keyCode 229 as Safari and older Chromium send it) and no other key. jsdom never submits a
 * form on Enter, so what is checked here is the cancelled keydown; e2e/behaviours.test.mjs
 * checks the real submission in Chromium.
 */
import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { preventImeSubmit } from './ime';

function field() {
  const onSubmit = vi.fn((e: { preventDefault: () => void }) => e.preventDefault());
  const { getByRole } = render(
    <form onSubmit={onSubmit} onKeyDown={preventImeSubmit}>
      <input aria-label="title" />
    </form>,
  );
  return getByRole('textbox');
}

describe('preventImeSubmit', () => {
  it('cancels the Enter that confirms a composition', () => {
    const input = field();
    // fireEvent answers false when a handler called preventDefault
    expect(fireEvent.keyDown(input, { key: 'Enter', isComposing: true })).toBe(false);
    expect(fireEvent.keyDown(input, { key: 'Enter', keyCode: 229 })).toBe(false);
  });

  it('leaves a plain Enter and other keys alone', () => {
    const input = field();
    expect(fireEvent.keyDown(input, { key: 'Enter', keyCode: 13 })).toBe(true);
    expect(fireEvent.keyDown(input, { key: 'a', keyCode: 229, isComposing: true })).toBe(true);
    expect(fireEvent.keyDown(input, { key: 'Escape', isComposing: true })).toBe(true);
  });
});
