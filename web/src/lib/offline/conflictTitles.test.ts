// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { titlesBeforeSync } from './conflictTitles';
import type { PendingAction } from './syncQueue';

const act = (p: Partial<PendingAction> & Pick<PendingAction, 'type'>, t: number): PendingAction => ({ timestamp: t, retryCount: 0, ...p });

describe('titlesBeforeSync', () => {
  it("takes a queued edit's own title first (the latest), then the SWR cache, then the offline cache", async () => {
    const stored = vi.fn(async () => [
      { id: 'r1', title: 'old name' },
      { id: 'r3', title: 'Bank' },
    ]);
    const titles = await titlesBeforeSync(
      [
        act({ type: 'update', reminderId: 'r1', data: { title: 'Milk' } }, 1),
        act({ type: 'update', reminderId: 'r1', data: { title: 'Oat milk' } }, 2),
        act({ type: 'complete', reminderId: 'r2', logId: 'l' }, 3),
        act({ type: 'snooze', reminderId: 'r3', logId: 'l' }, 4),
        act({ type: 'delete', reminderId: 'r4' }, 5),
        act({ type: 'create', reminderId: 'temp-1', data: { title: 'New' } }, 6),
      ],
      { cached: (id) => (id === 'r2' ? 'Plants' : undefined), stored },
    );
    expect(Object.fromEntries(titles)).toEqual({ r1: 'Oat milk', r2: 'Plants', r3: 'Bank' });
  });

  it('does not open the offline cache when it is not needed, and survives one that cannot be read', async () => {
    const stored = vi.fn(async () => []);
    await titlesBeforeSync([act({ type: 'update', reminderId: 'r1', data: { title: 'Milk' } }, 1)], { cached: () => undefined, stored });
    expect(stored).not.toHaveBeenCalled();
    const failing = vi.fn(() => Promise.reject(new Error('locked')));
    const titles = await titlesBeforeSync([act({ type: 'delete', reminderId: 'r1' }, 1)], { cached: () => undefined, stored: failing });
    expect(titles.size).toBe(0);
  });
});
