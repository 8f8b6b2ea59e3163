/** What kind of device and app window this is (the install guide and the device notice ask). */

export function isIos(n: { userAgent: string; maxTouchPoints: number }): boolean {
  if (/iPad|iPhone|iPod/.test(n.userAgent)) return true;
  // iPadOS 13+ reports itself as a Mac; a touch screen gives it away.
  return /Macintosh/.test(n.userAgent) && n.maxTouchPoints > 1;
}

/** Running as the installed app: navigator.standalone (iOS) or display-mode: standalone. */
export function isStandalone(): boolean {
  const nav = navigator as Navigator & { standalone?: boolean };
  return nav.standalone === true || window.matchMedia?.('(display-mode: standalone)').matches === true;
}

/**
 * The texts' word for pressing on this device: `touch` where the main pointer is a finger (an
 * i18next context: the `_touch` text says "tap", タップ), none elsewhere (the text says "click",
 * クリック).
 */
export function pointerContext(): 'touch' | undefined {
  return typeof window !== 'undefined' && window.matchMedia?.('(pointer: coarse)').matches === true ? 'touch' : undefined;
}
