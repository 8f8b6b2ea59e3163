/**
 * Line icons for the header and menu, drawn inline: a font glyph (＋, ☰) shows as an empty box
 * on systems whose fonts lack it. 1em square, currentColor, hidden from assistive technology
 * (the control around an icon carries the name).
 */
function Icon({ d }: { d: string }) {
  return (
    <svg className="icon" width="1em" height="1em" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" strokeWidth="2.25" strokeLinecap="round">
      <path d={d} />
    </svg>
  );
}

export const PlusIcon = () => <Icon d="M12 5v14M5 12h14" />;
export const MenuIcon = () => <Icon d="M4 7h16M4 12h16M4 17h16" />;
