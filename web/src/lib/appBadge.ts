/**
 * The app icon's badge (Badging API, where it exists): the number of overdue reminders. The
 * push sets it as a reminder fires; the app keeps it right as reminders are dealt with.
 */
type BadgeNavigator = { setAppBadge?: (n?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };

export function showOverdueBadge(count: number, nav: BadgeNavigator = (typeof navigator !== 'undefined' ? navigator : {}) as BadgeNavigator): void {
  const call = count > 0 ? nav.setAppBadge?.(count) : nav.clearAppBadge?.();
  void call?.catch(() => {});
}
