import { useId, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/Dialog';
import { preventImeSubmit } from '../../../lib/ime';
import type { List, Reminder, ReminderInput } from '../../../lib/types';
import { useDates } from '../../../shared/useDates';
import { AlarmsSection } from './AlarmsSection';
import { AssigneesField } from './AssigneesField';
import { BasicFields } from './BasicFields';
import { BreakThroughField } from './BreakThroughField';
import { ListField } from './ListField';
import { defaultListOf } from '../list/listFilter';
import { PreviewSection } from './PreviewSection';
import { RecurrenceFields } from './RecurrenceFields';
import { turnOf, type ReminderForm } from '../reminderLogic';
import { SkippedDates } from '../details/SkippedDates';
import { useFieldErrors } from './useFieldErrors';
import { useOccurrences, usePeople } from '../usePeople';
import { useReminderForm } from './useReminderForm';

/**
 * The create/edit dialog: the form (what, which list, when, the repeat, alerts, whether it rings
 * during quiet hours, skipped dates), the next occurrences as the server computes them, and Save
 * (its refusal shown by field). The list is a choice only when the person has more than one
 * (`lists`); in a list of more than one person, who is reminded, and whether they take turns (the
 * preview then says whose turn).
 */
export function ReminderDialog({
  open,
  initial,
  editing,
  onClose,
  onSave,
  deviceNotice,
  lists,
}: {
  open: boolean;
  initial: ReminderForm;
  editing: Reminder | null;
  onClose: () => void;
  onSave: (input: ReminderInput) => Promise<void>;
  /** shown above the form: whether this device will ring (the app passes it in) */
  deviceNotice: ReactNode;
  /** the person's lists (undefined while unknown) */
  lists?: readonly List[];
}) {
  const { t } = useTranslation(['reminders', 'errors']);
  const dates = useDates();
  const ids = useId();
  const f = useReminderForm({ open, initial, editing, onSave, onClose });
  const { errorText, err, described } = useFieldErrors(ids, f.errors, f.form.kind);
  const parts = { ids, form: f.form, setForm: f.setForm, err, described };
  const list = lists?.find((l) => l.id === f.form.listId) ?? defaultListOf(lists);
  const people = usePeople(open && list && list.members > 1 ? list.id : null);
  const shared = people.members && people.members.length > 1 ? people.members : null;
  // A repeat can escalate to one of the list's other people.
  const others = useMemo(() => shared?.filter((m) => m.user_id !== people.me) ?? [], [shared, people.me]);
  // Taking turns: a new reminder starts with the first chosen; an edit where the server says the
  // next turn is.
  const rotating = f.form.rotate && f.form.assignees.length > 1;
  const next = useOccurrences(open && rotating && editing ? editing.id : null);
  const turn = rotating && (!editing || next.data || next.error) ? (i: number) => people.nameOf(turnOf(f.form.assignees, i, next.data?.assignees?.[0])) : null;

  return (
    <Dialog
      open={open}
      wide
      title={editing ? t('dialog.editTitle') : t('dialog.createTitle')}
      onClose={onClose}
      discard={
        f.dirty
          ? { title: t('dialog.discardTitle'), text: t('dialog.discardText'), keep: t('dialog.discardKeep'), confirm: t('dialog.discardConfirm') }
          : null
      }
      footer={
        <>
          <button type="button" className="button secondary" onClick={onClose}>
            {t('dialog.cancel')}
          </button>
          <button type="submit" form={`${ids}-form`} className="button primary" disabled={f.busy}>
            {f.busy ? t('dialog.saving') : t('dialog.save')}
          </button>
        </>
      }
    >
      {deviceNotice}
      <form id={`${ids}-form`} className="reminder-form" onSubmit={f.submit} onKeyDown={preventImeSubmit} noValidate>
        <BasicFields
          ids={ids}
          form={f.form}
          set={f.set}
          err={err}
          described={described}
          listField={
            <>
              {lists && lists.length > 1 && <ListField id={`${ids}-list`} lists={lists} value={f.form.listId} onChange={f.setList} />}
              {shared && <AssigneesField id={`${ids}-who`} members={shared} me={people.me} nameOf={people.nameOf} form={f.form} setForm={f.setForm} err={err} described={described} />}
            </>
          }
        />
        <RecurrenceFields
          {...parts}
          toggleDay={f.toggleDay}
          errors={f.errors}
          moreOpen={f.moreOpen}
          onToggleMore={() => f.setMoreOpen((o) => !o)}
          dates={dates}
        />
        <AlarmsSection {...parts} open={f.alarmsOpen} onToggle={() => f.setAlarmsOpen((o) => !o)} lang={dates.lang} dates={dates} people={{ others, nameOf: people.nameOf }} />
        <BreakThroughField id={`${ids}-break-through`} form={f.form} setForm={f.setForm} err={err} described={described} />
        <SkippedDates ids={ids} form={f.form} setForm={f.setForm} dates={dates} />
        <PreviewSection id={`${ids}-preview`} preview={f.preview} turn={turn} timezone={f.form.timezone} once={f.form.kind === 'none'} dates={dates} errorText={errorText} />
        {f.serverError && (
          <p className="field-error" role="alert">
            {f.serverError}
          </p>
        )}
      </form>
    </Dialog>
  );
}
