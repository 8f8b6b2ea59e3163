import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from '../lib/router';
import { anyDialogOpen } from './dialogStack';
import { composing } from './focus';

/** The open menu or popover's close function: opening another one closes it (one at a time). */
let closeOpenOne: (() => void) | null = null;

/**
 * Open state of a header menu or popover: one at a time; Escape closes it and puts focus back on
 * its trigger; a click outside, focus moving elsewhere or a route change closes it.
 * `root` wraps the trigger and the panel.
 */
export function usePopover<Root extends HTMLElement, Trigger extends HTMLElement>() {
  const [open, setOpen] = useState(false);
  const root = useRef<Root>(null);
  const trigger = useRef<Trigger>(null);
  const { pathname } = useLocation();

  useEffect(() => setOpen(false), [pathname]);

  useEffect(() => {
    if (!open) return;
    const close = () => setOpen(false);
    if (closeOpenOne && closeOpenOne !== close) closeOpenOne();
    closeOpenOne = close;
    const onKey = (e: KeyboardEvent) => {
      // With a dialog open, Escape is the dialog's.
      if (e.key !== 'Escape' || composing(e) || e.defaultPrevented || anyDialogOpen()) return;
      close();
      trigger.current?.focus();
    };
    const outside = (target: EventTarget | null) => target instanceof Node && root.current !== null && !root.current.contains(target);
    const onPointerDown = (e: PointerEvent) => outside(e.target) && close();
    const onFocusIn = (e: FocusEvent) => outside(e.target) && close();
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('focusin', onFocusIn);
      if (closeOpenOne === close) closeOpenOne = null;
    };
  }, [open]);

  const toggle = useCallback(() => setOpen((o) => !o), []);
  const close = useCallback(() => setOpen(false), []);
  return { open, toggle, close, root, trigger };
}
