/** Account deletion: a confirmation the server refuses reads in the page's language. */
import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../components/toast';
import { resetAuthForTests } from '../../lib/authStore';
import type { User } from '../../lib/types';
import { json, mockFetch, ok, renderApp } from '../../test/renderApp';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const loc = () => screen.getByTestId('location').textContent;

beforeEach(() => {
  clearToasts();
  resetAuthForTests({ status: 'signedIn', user: USER });
});

describe('delete account', () => {
  it('ja: a confirmation the server refuses reads in Japanese', async () => {
    mockFetch({
      'GET /api/auth/session': () => ok({ user: USER, is_admin: false }),
      'DELETE /api/account': () =>
        json(400, {
          success: false,
          error: {
            code: 'VALIDATION_FAILED',
            message: 'Some fields are invalid.',
            fields: { confirm: 'Type your email address to confirm' },
            details: [{ field: 'confirm', code: 'invalid_choice' }],
          },
        }),
    });
    renderApp('/settings/delete-account');
    fireEvent.change(await screen.findByLabelText(/確認のため、メールアドレス/), { target: { value: 'TARO@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'アカウントを完全に削除' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('確認のため、メールアドレスを入力してください。');
    expect(loc()).toBe('/settings/delete-account');
  });
});
