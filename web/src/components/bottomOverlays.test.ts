/**
 * The toasts never cover the offline banner or an install card (decisions.md "Toasts"): the
 * heights those report become CSS variables on <html>, and styles.css places the cards above the
 * banner and the toaster above both. The placement is checked by evaluating styles.css's own
 * `bottom` expressions with the variables the store publishes, on phones with and without a
 * safe-area inset (the toaster's place does not depend on the width).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BOTTOM_OVERLAY_VARS, CARD_TOAST_GAP_PX, bottomOverlaySpace, setBottomOverlay } from './bottomOverlays';

const BANNER = Symbol('banner');
const CARD = Symbol('card');
const root = () => document.documentElement.style;

afterEach(() => {
  setBottomOverlay(BANNER, 'banner', null);
  setBottomOverlay(CARD, 'card', null);
});

describe('the heights bottom overlays publish', () => {
  it('nothing shown: no variable', () => {
    expect(root().getPropertyValue(BOTTOM_OVERLAY_VARS.banner)).toBe('');
    expect(root().getPropertyValue(BOTTOM_OVERLAY_VARS.card)).toBe('');
  });

  it("the banner's height; a card's height and the gap above it; each goes when its overlay does", () => {
    setBottomOverlay(BANNER, 'banner', 47.4);
    expect(root().getPropertyValue('--bottom-banner-height')).toBe('48px');
    setBottomOverlay(CARD, 'card', 180);
    expect(root().getPropertyValue('--bottom-cards-space')).toBe(`${180 + CARD_TOAST_GAP_PX}px`);
    setBottomOverlay(CARD, 'card', 200); // it grew (a ResizeObserver measured it again)
    expect(bottomOverlaySpace()).toEqual({ banner: 48, card: 200 + CARD_TOAST_GAP_PX });
    setBottomOverlay(BANNER, 'banner', null);
    expect(root().getPropertyValue('--bottom-banner-height')).toBe('');
    expect(root().getPropertyValue('--bottom-cards-space')).toBe(`${200 + CARD_TOAST_GAP_PX}px`);
    setBottomOverlay(CARD, 'card', null);
    expect(root().getPropertyValue('--bottom-cards-space')).toBe('');
  });

  it('an overlay measured 0 px tall (not laid out) takes no space', () => {
    setBottomOverlay(CARD, 'card', 0);
    expect(root().getPropertyValue('--bottom-cards-space')).toBe('');
  });
});

describe("styles.css's bottom places with those variables", () => {
  const css = readFileSync(join(import.meta.dirname, '..', 'styles.css'), 'utf8');
  /** The `bottom` of the first rule whose selector is exactly `selector`. */
  function bottomOf(selector: string): string {
    const rule = css.split('\n').find((line) => line.startsWith(`${selector} {`));
    const m = rule?.match(/[{;]\s*bottom:\s*([^;]+);/);
    if (!m) throw new Error(`no bottom for ${selector}`);
    return m[1]!.trim();
  }

  /** A CSS length expression in px, with the safe-area inset and the variables given. */
  function evaluate(expr: string, safeArea: number): number {
    const vars = { banner: root().getPropertyValue(BOTTOM_OVERLAY_VARS.banner), card: root().getPropertyValue(BOTTOM_OVERLAY_VARS.card) };
    let js = expr.replace(/env\(safe-area-inset-bottom\)/g, `${safeArea}px`);
    js = js.replace(/var\((--[\w-]+),\s*([^)]+)\)/g, (_, name: string, fallback: string) => {
      const value = name === BOTTOM_OVERLAY_VARS.banner ? vars.banner : name === BOTTOM_OVERLAY_VARS.card ? vars.card : '';
      return value || fallback;
    });
    js = js.replace(/(\d+(?:\.\d+)?)px/g, '$1').replace(/\bcalc\(/g, '(').replace(/\bmax\(/g, 'Math.max(');
    if (!/^[\d\s.+\-*(),]*$/.test(js.replace(/Math\.max/g, ''))) throw new Error(`cannot evaluate ${expr} (${js})`);
    return Function(`return ${js}`)() as number;
  }

  const cases = [
    { banner: null, card: null },
    { banner: 40, card: null },
    { banner: 64, card: null }, // two lines of banner text on a narrow phone
    { banner: null, card: 190 },
    { banner: 40, card: 190 },
    { banner: 64, card: 260 },
  ];
  for (const safeArea of [0, 34]) {
    for (const shown of cases) {
      it(`safe area ${safeArea}px, banner ${shown.banner ?? 'none'}, card ${shown.card ?? 'none'}: the toast is above them, the card above the banner`, () => {
        // The banner is at the very bottom (its height includes its safe-area padding).
        expect(bottomOf('.offline-banner')).toBe('0');
        setBottomOverlay(BANNER, 'banner', shown.banner);
        setBottomOverlay(CARD, 'card', shown.card);
        const base = Math.max(12, safeArea);
        const toast = evaluate(bottomOf('.toaster'), safeArea);
        const card = evaluate(bottomOf('.overlay-card'), safeArea);
        const bannerTop = shown.banner ?? 0;
        // nothing shown: the toast's place as before (12 px up, or the safe area)
        if (shown.banner === null && shown.card === null) expect(toast).toBe(base);
        // the card clears the banner (and the safe area)
        expect(card).toBeGreaterThanOrEqual(Math.max(base, bannerTop + 8));
        // the toast clears the banner, and the card's top when one shows
        expect(toast).toBeGreaterThanOrEqual(Math.max(base, bannerTop + 8));
        if (shown.card !== null) expect(toast).toBeGreaterThanOrEqual(card + shown.card + CARD_TOAST_GAP_PX);
        // and no further up than it needs to be
        expect(toast).toBeLessThanOrEqual(Math.max(base, bannerTop + 12) + (shown.card === null ? 0 : shown.card + CARD_TOAST_GAP_PX));
      });
    }
  }
});
