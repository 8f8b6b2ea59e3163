import { ListSwitcher } from '../../features/lists/ListSwitcher';
import { useLists } from '../../features/lists/useLists';
import { DeviceSetupNotice } from '../../features/notifications/DeviceSetupNotice';
import { QuickAdd } from '../../features/quickadd/QuickAdd';
import RemindersPage from '../../features/reminders/list/RemindersPage';

/**
 * The reminders page with quick add; its create/edit dialog shows the device notice (from
 * notifications); the lists (from lists) name, colour and filter the reminders, and the list
 * switcher chooses one and opens their management.
 */
export default function RemindersRoute() {
  const lists = useLists();
  return (
    <RemindersPage
      deviceNotice={<DeviceSetupNotice compact />}
      quickAdd={<QuickAdd />}
      lists={lists.data}
      listSwitcher={(slot) => <ListSwitcher {...slot} />}
    />
  );
}
