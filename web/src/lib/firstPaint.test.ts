import { describe, expect, it, vi } from 'vitest';

// A fresh module per test: the setup file marks the shared one painted.
async function freshModule() {
  vi.resetModules();
  return import('./firstPaint');
}

describe('afterFirstPaint', () => {
  it('holds work until the frame after the first render, then runs it once, in order', async () => {
    const { afterFirstPaint, firstRenderCommitted } = await freshModule();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const ran: string[] = [];
      afterFirstPaint(() => ran.push('session check'));
      afterFirstPaint(() => ran.push('background tasks'));
      expect(ran).toEqual([]);
      firstRenderCommitted();
      vi.advanceTimersByTime(0);
      expect(ran).toEqual([]); // not before the frame
      frames.shift()!(0);
      vi.advanceTimersToNextTimer(); // the frame is painted
      vi.advanceTimersToNextTimer(); // the held-back work, each piece in a task of its own
      expect(ran).toEqual(['session check', 'background tasks']);
      vi.advanceTimersByTime(200); // the stand-in timer does not run them again
      afterFirstPaint(() => ran.push('later'));
      expect(ran).toEqual(['session check', 'background tasks', 'later']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a tab that paints no frame still runs the work, after 100 ms', async () => {
    const { afterFirstPaint, firstRenderCommitted } = await freshModule();
    vi.stubGlobal('requestAnimationFrame', () => 0);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const ran = vi.fn();
      afterFirstPaint(ran);
      firstRenderCommitted();
      vi.advanceTimersByTime(99);
      expect(ran).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      vi.advanceTimersToNextTimer();
      expect(ran).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
