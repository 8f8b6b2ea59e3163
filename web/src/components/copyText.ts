import { toast } from './toast';

/**
 * Copies `text` and says so; without clipboard access (an insecure origin, a refused
 * permission), selects it in `field` for the person to copy and says that copying failed.
 */
export async function copyOrSelect(text: string, field: HTMLInputElement | null | undefined, texts: { copied: string; failed: string }): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(texts.copied);
  } catch {
    field?.select();
    toast.error(texts.failed);
  }
}
