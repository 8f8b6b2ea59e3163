import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { Spinner } from '../../components/Spinner';
import { toast } from '../../components/toast';
import type { List } from '../../lib/types';
import { DeleteListDialog } from './DeleteListDialog';
import { ListForm } from './ListForm';
import { ListPeople } from './ListPeople';
import { DEFAULT_COLOUR, type ListFormValue } from './listForm';
import { useListMutations, useLists } from './useLists';

/**
 * "Lists": every list the person belongs to (colour, name, active reminders), and for their own
 * lists Edit (name, colour) and Delete (after a confirmation naming how many reminders go with
 * it); the default list is renamed but never deleted, which it says; a list shared with them
 * says only its owner changes it. "New list" adds one. All of it needs the network: offline the
 * buttons are disabled and a line of text says why. `onDeleted` lets the page leave a list that
 * is gone.
 */
export function ManageListsDialog({
  open,
  online,
  onClose,
  onDeleted,
}: {
  open: boolean;
  online: boolean;
  onClose: () => void;
  onDeleted?: (id: string) => void;
}) {
  const { t } = useTranslation(['lists', 'errors']);
  const ids = useId();
  const offlineReason = `${ids}-offline`;
  const lists = useLists();
  const { create, update, remove } = useListMutations();
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<List | null>(null);
  // The list whose people are shown (one at a time).
  const [peopleOf, setPeopleOf] = useState<string | null>(null);
  const offline = online ? undefined : offlineReason;
  // Opened, it reads the lists again: the counts (which a delete names) move with every
  // reminder made, moved or deleted since they were read.
  const revalidate = lists.mutate;
  useEffect(() => {
    if (open) void revalidate();
  }, [open, revalidate]);
  // The list being deleted, as read last (its count may have moved since the click).
  const deletingNow = deleting ? (lists.data?.find((l) => l.id === deleting.id) ?? deleting) : null;

  const close = () => {
    setEditing(null);
    setAdding(false);
    onClose();
  };
  const focusLater = (id: string) => setTimeout(() => document.getElementById(id)?.focus(), 0);

  async function add(v: ListFormValue) {
    const made = await create(v);
    setAdding(false);
    toast.success(t('toast.created', { name: made.name }));
    focusLater(`${ids}-new`);
  }

  async function save(l: List, v: ListFormValue) {
    const patch = { ...(v.name !== l.name ? { name: v.name } : {}), ...(v.colour !== l.colour ? { colour: v.colour } : {}) };
    const saved = Object.keys(patch).length > 0 ? await update(l.id, patch) : l;
    setEditing(null);
    toast.success(t('toast.updated', { name: saved.name }));
    focusLater(`${ids}-edit-${l.id}`);
  }

  async function doDelete(l: List) {
    await remove(l.id);
    setDeleting(null);
    onDeleted?.(l.id);
    toast.success(t('toast.deleted', { name: l.name }));
  }

  return (
    <Dialog open={open} title={t('manage.title')} onClose={close}>
      {!online && (
        <p className="notice" id={offlineReason}>
          {t('manage.offline')}
        </p>
      )}
      {!lists.data ? (
        lists.error ? (
          <div>
            <p className="field-error" role="alert">
              {t('errors.loadFailed')}
            </p>
            <button type="button" className="button secondary small" onClick={() => void lists.mutate()}>
              {t('manage.retry')}
            </button>
          </div>
        ) : (
          <Spinner label={t('manage.loading')} />
        )
      ) : (
        <ul className="list-manage">
          {lists.data.map((l) => {
            const own = l.role === 'owner';
            return (
              <li key={l.id}>
                {editing === l.id ? (
                  <ListForm
                    initial={{ name: l.name, colour: l.colour }}
                    submitLabel={t('form.save')}
                    busyLabel={t('form.saving')}
                    onSubmit={(v) => save(l, v)}
                    onCancel={() => {
                      setEditing(null);
                      focusLater(`${ids}-edit-${l.id}`);
                    }}
                    disabled={!online}
                    offlineReason={offline}
                  />
                ) : (
                  <>
                    <div className="list-manage-row">
                      <span className={`list-manage-name lc-${l.colour}`}>
                        <span className="list-dot" aria-hidden="true" />
                        <span>{l.name}</span>
                      </span>
                      <span className="muted small">{t('manage.active', { count: l.active_reminders })}</span>
                      {l.is_default && <span className="badge">{t('manage.default')}</span>}
                      <button
                        type="button"
                        className="button small ghost"
                        aria-expanded={peopleOf === l.id}
                        aria-label={t('people.toggleNamed', { name: l.name, count: l.members })}
                        onClick={() => setPeopleOf(peopleOf === l.id ? null : l.id)}
                      >
                        {t('people.toggle', { count: l.members })}
                      </button>
                      {own && (
                        <span className="list-manage-actions">
                          <button
                            type="button"
                            id={`${ids}-edit-${l.id}`}
                            className="button small secondary"
                            aria-label={t('manage.editNamed', { name: l.name })}
                            onClick={() => {
                              setAdding(false);
                              setEditing(l.id);
                            }}
                            disabled={!online}
                            aria-describedby={offline}
                          >
                            {t('manage.edit')}
                          </button>
                          {!l.is_default && (
                            <button
                              type="button"
                              className="button small ghost"
                              aria-label={t('manage.deleteNamed', { name: l.name })}
                              onClick={() => setDeleting(l)}
                              disabled={!online}
                              aria-describedby={offline}
                            >
                              {t('manage.delete')}
                            </button>
                          )}
                        </span>
                      )}
                    </div>
                    {peopleOf === l.id && (
                      <ListPeople
                        list={l}
                        online={online}
                        offlineReason={offline}
                        onLeft={() => {
                          setPeopleOf(null);
                          onDeleted?.(l.id);
                        }}
                      />
                    )}
                    {own && l.is_default && <p className="hint">{t('manage.defaultUndeletable')}</p>}
                    {!own && <p className="hint">{t('manage.shared')}</p>}
                  </>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {adding ? (
        <section aria-labelledby={`${ids}-new-title`}>
          <h3 id={`${ids}-new-title`}>{t('manage.new')}</h3>
          <ListForm
            initial={{ name: '', colour: DEFAULT_COLOUR }}
            submitLabel={t('form.create')}
            busyLabel={t('form.creating')}
            onSubmit={add}
            onCancel={() => {
              setAdding(false);
              focusLater(`${ids}-new`);
            }}
            disabled={!online}
            offlineReason={offline}
          />
        </section>
      ) : (
        <button
          type="button"
          id={`${ids}-new`}
          className="button primary block"
          onClick={() => {
            setEditing(null);
            setAdding(true);
          }}
          disabled={!online}
          aria-describedby={offline}
        >
          {t('manage.new')}
        </button>
      )}
      <DeleteListDialog list={deletingNow} online={online} onDelete={doDelete} onClose={() => setDeleting(null)} />
    </Dialog>
  );
}
