import type { Dispatch, ReactNode, SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import type { Member } from '../../../lib/types';
import { toggleAssignee, type FormErrors, type ReminderForm } from '../reminderLogic';

/**
 * Who is reminded, in a list of more than one person (decisions.md "Who is reminded"): each
 * person a toggle button, pressed = reminded, none pressed = everyone; the order of pressing is
 * the order of turns. With two or more, "Take turns" gives each occurrence to the next of them.
 */
export function AssigneesField({
  id,
  members,
  me,
  nameOf,
  form,
  setForm,
  err,
  described,
}: {
  id: string;
  members: readonly Member[];
  /** the reader's user id */
  me: string | undefined;
  nameOf: (id: string) => string | null;
  form: ReminderForm;
  setForm: Dispatch<SetStateAction<ReminderForm>>;
  err: (k: keyof FormErrors) => ReactNode;
  described: (k: keyof FormErrors) => object;
}) {
  const { t } = useTranslation('reminders');
  const chosen = form.assignees;
  return (
    <fieldset className="assignees" aria-describedby={`${id}-who`} {...described('assignees')}>
      <legend>{t('assign.label')}</legend>
      <div className="assignee-chips">
        {members.map((m) => {
          const at = chosen.indexOf(m.user_id);
          return (
            <button key={m.user_id} type="button" className="chip" aria-pressed={at >= 0} onClick={() => setForm((f) => ({ ...f, ...toggleAssignee(f, m.user_id) }))}>
              {form.rotate && at >= 0 && <span className="chip-count">{at + 1}.</span>}
              <span className="chip-name">{m.email}</span>
              {m.user_id === me && <span className="chip-count">{t('assign.youMark')}</span>}
            </button>
          );
        })}
      </div>
      <p className="hint" id={`${id}-who`}>
        {chosen.length === 0 ? t('assign.everyone') : t('assign.chosen')}
      </p>
      {err('assignees')}
      {chosen.length > 1 && (
        <>
          <label className="check">
            <input
              type="checkbox"
              checked={form.rotate}
              onChange={(e) => setForm((f) => ({ ...f, rotate: e.target.checked }))}
              aria-describedby={`${id}-turns`}
              {...described('rotate')}
            />
            <span>{t('assign.rotate')}</span>
          </label>
          <p className="hint" id={`${id}-turns`}>
            {t('assign.rotateHint', { order: chosen.map((a) => nameOf(a) ?? '?').join(' → ') })}
          </p>
        </>
      )}
      {err('rotate')}
    </fieldset>
  );
}
