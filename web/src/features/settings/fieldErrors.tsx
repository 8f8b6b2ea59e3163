/**
 * A settings field's error as the server words it, by its whole path (`quiet_hours.end`): `error`
 * renders it under the field; `described` links a field to it (`aria-invalid`, and
 * `aria-describedby` beside the field's own hint); `describedBy` links a group of fields to it.
 */
export function fieldErrorProps(errors: Readonly<Record<string, string>>, ids: string) {
  const idOf = (path: string) => `${ids}-${path.replace(/\W/g, '-')}-err`;
  const error = (path: string) =>
    errors[path] ? (
      <p id={idOf(path)} className="field-error" role="alert">
        {errors[path]}
      </p>
    ) : null;
  const describedBy = (path: string, hint?: string) => {
    const by = [hint, errors[path] ? idOf(path) : undefined].filter(Boolean).join(' ');
    return by ? { 'aria-describedby': by } : {};
  };
  const described = (path: string, hint?: string) => ({ ...(errors[path] ? { 'aria-invalid': true } : {}), ...describedBy(path, hint) });
  return { error, described, describedBy };
}
