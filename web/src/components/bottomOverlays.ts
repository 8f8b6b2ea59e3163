/**
 * What is fixed at the bottom of the window besides the toasts: the offline/sync banner (at the
 * very bottom) and the install cards (the install prompt, the iOS guide). Each reports its height
 * here while it is shown, and the totals become CSS variables on <html> that styles.css stacks
 * them with: the cards sit above the banner, and the toaster above both, so that a toast never
 * covers them (decisions.md "Toasts": never over the offline banner or the first-run button).
 *
 * - `--bottom-banner-height`: the banner's height (its own safe-area padding included);
 * - `--bottom-cards-space`: the cards' heights plus the gap between a card and a toast.
 * Neither is set while nothing of its kind is shown.
 */
import { useCallback, useRef } from 'react';

export type BottomOverlayKind = 'banner' | 'card';

export const BOTTOM_OVERLAY_VARS: Record<BottomOverlayKind, string> = {
  banner: '--bottom-banner-height',
  card: '--bottom-cards-space',
};

/** The gap kept between a card and the toast above it. */
export const CARD_TOAST_GAP_PX = 8;

const shown = new Map<symbol, { kind: BottomOverlayKind; height: number }>();

/** The space each kind takes now, in px (what the CSS variables say). */
export function bottomOverlaySpace(): Record<BottomOverlayKind, number> {
  const space = { banner: 0, card: 0 };
  for (const { kind, height } of shown.values()) {
    if (height > 0) space[kind] += Math.ceil(height) + (kind === 'card' ? CARD_TOAST_GAP_PX : 0);
  }
  return space;
}

function publish(): void {
  const style = document.documentElement.style;
  const space = bottomOverlaySpace();
  for (const kind of ['banner', 'card'] as const) {
    if (space[kind] > 0) style.setProperty(BOTTOM_OVERLAY_VARS[kind], `${space[kind]}px`);
    else style.removeProperty(BOTTOM_OVERLAY_VARS[kind]);
  }
}

/** Overlay `id` of `kind` is shown `height` px tall, or (null) no longer shown. */
export function setBottomOverlay(id: symbol, kind: BottomOverlayKind, height: number | null): void {
  if (height === null) shown.delete(id);
  else shown.set(id, { kind, height });
  publish();
}

/**
 * A callback ref for a bottom overlay's element: while the element is in the page its height
 * (kept up to date by a ResizeObserver where there is one) counts in its kind's CSS variable.
 */
export function useBottomOverlay(kind: BottomOverlayKind): (el: HTMLElement | null) => void {
  const cleanup = useRef<(() => void) | null>(null);
  return useCallback(
    (el: HTMLElement | null) => {
      cleanup.current?.();
      cleanup.current = null;
      if (!el) return;
      const id = Symbol(kind);
      const measure = () => setBottomOverlay(id, kind, el.getBoundingClientRect().height);
      measure();
      const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
      observer?.observe(el);
      cleanup.current = () => {
        observer?.disconnect();
        setBottomOverlay(id, kind, null);
      };
    },
    [kind],
  );
}
