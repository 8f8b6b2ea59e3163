import { describe, expect, it, vi } from 'vitest';
import { showOverdueBadge } from './appBadge';

describe('the app badge', () => {
  it('shows the overdue count and clears at zero', () => {
    const nav = { setAppBadge: vi.fn(() => Promise.resolve()), clearAppBadge: vi.fn(() => Promise.resolve()) };
    showOverdueBadge(3, nav);
    expect(nav.setAppBadge).toHaveBeenCalledWith(3);
    showOverdueBadge(0, nav);
    expect(nav.clearAppBadge).toHaveBeenCalledTimes(1);
  });
  it('does nothing where the Badging API is missing', () => {
    expect(() => showOverdueBadge(2, {})).not.toThrow();
  });
});
