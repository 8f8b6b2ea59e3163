import type { KeyboardEvent } from 'react';

/** True for the Enter that confirms an IME composition (isComposing or keyCode 229). */
export function isImeComposing(e: Pick<KeyboardEvent, 'nativeEvent' | 'keyCode'>): boolean {
  return Boolean((e.nativeEvent as globalThis.KeyboardEvent | undefined)?.isComposing) || e.keyCode === 229;
}

/** onKeyDown for a <form>: Enter that confirms a Japanese IME composition never submits. */
export function preventImeSubmit(e: KeyboardEvent<HTMLElement>): void {
  if (e.key === 'Enter' && isImeComposing(e)) e.preventDefault();
}
