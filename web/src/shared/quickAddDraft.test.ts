import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { resetAuthForTests, signOut } from '../lib/authStore';
import { setQuickAddDraft, useQuickAddDraft } from './quickAddDraft';

describe('the quick-add draft', () => {
  it('is kept until cleared, and goes with a sign-out', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(null, { status: 204 })));
    resetAuthForTests({ user: { id: 'u1', email: 'a@example.com' } as never, status: 'signedIn' });
    const { result } = renderHook(() => useQuickAddDraft());
    act(() => setQuickAddDraft('明日9時 薬'));
    expect(result.current).toBe('明日9時 薬');
    await act(async () => {
      await signOut();
    });
    expect(result.current).toBe('');
    vi.unstubAllGlobals();
  });
});
