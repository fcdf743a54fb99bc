import { HistoryPortalListPage } from "./list-page";

/** History Portal, All (spec 01 §2.6). */
export function HistoryPortalAllPage() {
  return <HistoryPortalListPage listId="all" />;
}
