import { describe, expect, it } from 'vitest';
import type { PendingAction } from '../../../lib/offline/syncQueue';
import type { Reminder } from '../../../lib/types';
import { overlayPending, tempReminder } from './pendingOverlay';

const server: Reminder = tempReminder({ title: 'Server', send_at: '2030-01-01T00:00:00Z', recurrence: { kind: 'none' } }, 'r1', 'u1', 0);
const queued = (a: Partial<PendingAction>): PendingAction => ({ type: 'create', timestamp: 1000, retryCount: 0, ...a });

describe('overlayPending', () => {
  it('keeps a queued create on screen until the server has it', () => {
    const out = overlayPending([server], [queued({ reminderId: 'temp-5', data: { title: 'Offline', send_at: '2030-02-01T00:00:00Z' } })], 'u1');
    expect(out.map((r) => r.id)).toEqual(['r1', 'temp-5']);
    expect(out[1]).toMatchObject({ title: 'Offline', scheduled_at: '2030-02-01T00:00:00Z', is_active: true, is_archived: false, user_id: 'u1' });
  });
  it('applies queued updates on top of the server copy', () => {
    const out = overlayPending([server], [queued({ type: 'update', reminderId: 'r1', data: { title: 'Edited', send_at: '2031-01-01T00:00:00Z' } })], 'u1');
    expect(out[0]).toMatchObject({ id: 'r1', title: 'Edited', scheduled_at: '2031-01-01T00:00:00Z' });
  });
  it('ignores actions without data or for other reminders, and never duplicates', () => {
    const temp = tempReminder({ title: 'T', send_at: '2030-01-01T00:00:00Z' }, 'temp-1', 'u1', 0);
    const out = overlayPending(
      [server, temp],
      [queued({ reminderId: 'temp-1', data: { title: 'T', send_at: 'x' } }), queued({ type: 'update', reminderId: 'zz', data: { title: 'x' } }), queued({ type: 'delete', reminderId: 'r1' })],
      'u1',
    );
    expect(out).toEqual([server, temp]);
  });
});
