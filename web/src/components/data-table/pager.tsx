import { pager } from "../../lib/wasm";
import { useLabels } from "../../i18n/labels";
import { fill } from "../../i18n/fill";
// Its styles are the tables' (a pager may be used without a DataTable).
import "./data-table.css";

export interface PagerProps {
  pageIndex: number;
  pageSize: number;
  rowCount: number;
  onPage: (pageIndex: number) => void;
}

/** Numbered paging (spec 01 §2.6): Previous, page numbers with gaps, Next, and a summary; which
 * pages and rows is wasm-core's `pager`. */
export function Pager({ pageIndex, pageSize, rowCount, onPage }: PagerProps) {
  const { t } = useLabels();
  const { PageCount: pageCount, FirstRow: first, LastRow: last, Pages: pages } = pager(pageIndex, pageSize, rowCount);
  return (
    <div className="pager">
      <p className="pager-summary" aria-live="polite">
        {fill(t("Table_Showing"), { first, last, count: rowCount })}
      </p>
      <nav aria-label={t("Table_Pagination")}>
        <ul>
          <li>
            <button type="button" disabled={pageIndex <= 0} onClick={() => onPage(pageIndex - 1)}>
              {t("Table_Previous")}
            </button>
          </li>
          {pages.map((page, i) =>
            page === null ? (
              <li key={`gap${i}`} className="pager-gap" aria-hidden="true">
                …
              </li>
            ) : (
              <li key={page}>
                <button
                  type="button"
                  aria-label={fill(t("Table_Page"), { page: page + 1 })}
                  aria-current={page === pageIndex ? "page" : undefined}
                  onClick={() => onPage(page)}
                >
                  {page + 1}
                </button>
              </li>
            ),
          )}
          <li>
            <button type="button" disabled={pageIndex >= pageCount - 1} onClick={() => onPage(pageIndex + 1)}>
              {t("Table_Next")}
            </button>
          </li>
        </ul>
      </nav>
    </div>
  );
}
