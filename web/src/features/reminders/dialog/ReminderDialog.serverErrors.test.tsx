/**
 * The reminder dialog shows the server's validation errors at their fields in the page's
 * language, never the server's English; other codes read in the language too.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../components/toast';
import { resetAuthForTests } from '../../../lib/authStore';
import type { User } from '../../../lib/types';
import { json, mockFetch, ok, renderApp } from '../../../test/renderApp';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
/** A 400 as the server sends it: each field's message, and its code with its numbers in `details`. */
const refused = (errors: Record<string, [message: string, code: string, params?: Record<string, number>]>) =>
  json(400, {
    success: false,
    error: {
      code: 'VALIDATION_FAILED',
      message: 'Some fields are invalid.',
      fields: Object.fromEntries(Object.entries(errors).map(([f, [m]]) => [f, m])),
      details: Object.entries(errors).map(([field, [, code, params]]) => ({ field, code, ...(params ? { params } : {}) })),
    },
  });

async function fillAndSave() {
  fireEvent.click(await screen.findByRole('button', { name: 'リマインダーを作成', hidden: false }));
  const dialog = await screen.findByRole('dialog', { name: 'リマインダーを作成' });
  fireEvent.change(within(dialog).getByLabelText('タイトル'), { target: { value: 'ストレッチ' } });
  fireEvent.change(within(dialog).getByLabelText('日付'), { target: { value: '2030-01-02' } });
  fireEvent.change(within(dialog).getByLabelText('時刻（秒まで）'), { target: { value: '09:00:05' } });
  await act(async () => {
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }));
  });
  return dialog;
}

beforeEach(() => {
  clearToasts();
  resetAuthForTests({ user: USER, status: 'signedIn' });
});

describe('server errors in the reminder dialog', () => {
  it('ja: each field error in Japanese at its field, by its code; an unknown code reads "check <field>"', async () => {
    mockFetch({
      'GET /api/reminders': () => ok([]),
      'POST /api/reminders/preview': () => ok({ occurrences: [] }),
      'POST /api/reminders': () =>
        refused({
          send_at: ['send_at must be in the future', 'not_in_future'],
          title: ['a rule this client does not know yet', 'from_a_newer_server'],
          'recurrence.kind': ['unknown variant `x`', 'invalid_choice'],
        }),
    });
    renderApp('/reminders');
    const dialog = await fillAndSave();
    expect(await within(dialog).findByText('未来の日時を指定してください。')).toHaveClass('field-error');
    expect(within(dialog).getByText('「タイトル」を確認してください。')).toHaveClass('field-error');
    expect(within(dialog).getByText('「繰り返し」は選択肢から選んでください。')).toHaveClass('field-error');
    expect(within(dialog).getByLabelText('タイトル')).toHaveAttribute('aria-invalid', 'true');
    expect(dialog.textContent).not.toMatch(/must be|unknown variant|does not know|VALIDATION_FAILED/);
  });

  it('ja: a field the form does not have shows its text above the buttons', async () => {
    mockFetch({
      'GET /api/reminders': () => ok([]),
      'POST /api/reminders/preview': () => ok({ occurrences: [] }),
      'POST /api/reminders': () => refused({ metadata: ['Metadata must be at most 4096 bytes of JSON', 'too_long', { max: 4096 }] }),
    });
    renderApp('/reminders');
    const dialog = await fillAndSave();
    expect(await within(dialog).findByText('付加情報が大きすぎます（4096バイトまで）。')).toBeInTheDocument();
  });

  it('ja: the 100-reminder limit and a server failure read in Japanese', async () => {
    let answer = json(409, { success: false, error: { code: 'REMINDER_LIMIT', message: 'at most 100 active reminders' } });
    mockFetch({
      'GET /api/reminders': () => ok([]),
      'POST /api/reminders/preview': () => ok({ occurrences: [] }),
      'POST /api/reminders': () => answer,
    });
    renderApp('/reminders');
    const dialog = await fillAndSave();
    expect(await within(dialog).findByText('アクティブなリマインダーは最大100件までです。完了したものは数えません。')).toBeInTheDocument();
    answer = json(500, { success: false, error: { code: 'INTERNAL_ERROR', message: 'Something went wrong on our side.' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    });
    expect(await within(dialog).findByText('サーバーで問題が発生しました。しばらくしてからもう一度お試しください。')).toBeInTheDocument();
  });
});
