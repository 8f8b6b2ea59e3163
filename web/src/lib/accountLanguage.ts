/** Saves the signed-in account's language (loaded when the EN/JA switch is used signed in). */
import { mutate } from 'swr';
import { api } from './api';
import { swrKeys } from './swrKeys';
import type { Lang } from './lang';

export async function saveAccountLanguage(language: Lang): Promise<void> {
  const saved = await api.settings.update({ language });
  await mutate(swrKeys.settings(), saved, { revalidate: false });
}
