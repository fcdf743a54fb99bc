export interface PagerProps {
  pageIndex: number;
  pageSize: number;
  rowCount: number;
  onPage: (pageIndex: number) => void;
}

/** Pages shown around the current one before the list is shortened with gaps. */
const AROUND = 2;

/** Numbered paging (spec 01 §2.6): Previous, page numbers with gaps, Next, and a summary. */
export function Pager({ pageIndex, pageSize, rowCount, onPage }: PagerProps) {
  const pageCount = Math.max(1, Math.ceil(rowCount / pageSize));
  const first = rowCount === 0 ? 0 : pageIndex * pageSize + 1;
  const last = Math.min(rowCount, (pageIndex + 1) * pageSize);
  const pages: (number | "gap")[] = [];
  for (let i = 0; i < pageCount; i++) {
    if (i === 0 || i === pageCount - 1 || Math.abs(i - pageIndex) <= AROUND) pages.push(i);
    else if (pages[pages.length - 1] !== "gap") pages.push("gap");
  }
  return (
    <div className="pager">
      <p className="pager-summary" aria-live="polite">
        Showing {first} to {last} of {rowCount} entries
      </p>
      <nav aria-label="Pagination">
        <ul>
          <li>
            <button type="button" disabled={pageIndex <= 0} onClick={() => onPage(pageIndex - 1)}>
              Previous
            </button>
          </li>
          {pages.map((page, i) =>
            page === "gap" ? (
              <li key={`gap${i}`} className="pager-gap" aria-hidden="true">
                …
              </li>
            ) : (
              <li key={page}>
                <button
                  type="button"
                  aria-label={`Page ${page + 1}`}
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
              Next
            </button>
          </li>
        </ul>
      </nav>
    </div>
  );
}
