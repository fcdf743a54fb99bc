import { useEffect, useId, useState, type ReactNode } from "react";
import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
} from "@tanstack/react-table";
import { maxSearchChars, pageSizes, type TableState } from "../../lib/wasm";
import { Pager } from "./pager";
import { useLabels } from "../../i18n/labels";
import "./data-table.css";

// The sizes wasm-core allows (the server clamps to the same list); read once at load.
const PAGE_SIZES = Array.from(pageSizes());
/** The longest search the server accepts (wasm-core `table::MAX_SEARCH_CHARS`). */
const MAX_SEARCH_CHARS = maxSearchChars();

interface CommonProps<T> {
  /** Accessible name of the table. */
  label: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  data: T[];
  getRowId?: (row: T) => string;
  emptyMessage?: string;
  loading?: boolean;
  /** Row click (e.g. open a details modal); rows get a pointer cursor. */
  onRowClick?: (row: T) => void;
  /** Extra class names of a row (e.g. a status style). */
  rowClassName?: (row: T) => string | undefined;
}

/** Unpaged, sorted in the browser (spec 01 §2.3: document tables; home appointments).
 * Default sort: first column ascending (spec 01 §9). */
export interface ClientTableProps<T> extends CommonProps<T> {
  mode: "client";
}

/** Server-driven (spec 01 §2.6): the page, sort and search live in `state` (wasm-core's
 * TableState, kept in the address by the page) and every change goes back through
 * onStateChange; the server answers one page and `rowCount` rows in all. */
export interface ServerTableProps<T> extends CommonProps<T> {
  mode: "server";
  state: TableState;
  rowCount: number;
  onStateChange: (next: TableState) => void;
  searchable?: boolean;
}

export type DataTableProps<T> = ClientTableProps<T> | ServerTableProps<T>;

export function DataTable<T>(props: DataTableProps<T>) {
  const { columns, data, label, getRowId, emptyMessage = "No data available", loading } = props;
  const server = props.mode === "server" ? props : null;
  const firstColumn = columns[0]?.id ?? (columns[0] as { accessorKey?: string } | undefined)?.accessorKey ?? "";
  const [clientSorting, setClientSorting] = useState<SortingState>(firstColumn ? [{ id: firstColumn, desc: false }] : []);

  const sorting: SortingState = server
    ? server.state.SortColumn
      ? [{ id: server.state.SortColumn, desc: server.state.SortDirection === "desc" }]
      : []
    : clientSorting;

  const table = useReactTable({
    data,
    columns,
    getRowId,
    state: {
      sorting,
      ...(server && { pagination: { pageIndex: server.state.PageIndex, pageSize: server.state.PageSize } }),
    },
    getCoreRowModel: getCoreRowModel(),
    ...(server
      ? { manualPagination: true, manualSorting: true, rowCount: server.rowCount }
      : { getSortedRowModel: getSortedRowModel() }),
    // A header click sorts ascending first, whatever the type of the column (spec 01 §9).
    sortDescFirst: false,
    enableSortingRemoval: false,
    onSortingChange: (updater) => {
      const next = typeof updater === "function" ? updater(sorting) : updater;
      if (!server) return setClientSorting(next);
      const [first] = next;
      // A new sort starts again on the first page.
      server.onStateChange({
        ...server.state,
        PageIndex: 0,
        SortColumn: first?.id,
        SortDirection: first?.desc ? "desc" : "asc",
      });
    },
  });

  const rows = table.getRowModel().rows;
  return (
    <div className="data-table">
      {server && (
        <div className="data-table-toolbar">
          <PageSizeSelect
            value={server.state.PageSize}
            options={PAGE_SIZES}
            onChange={(PageSize) => server.onStateChange({ ...server.state, PageSize, PageIndex: 0 })}
          />
          {server.searchable !== false && (
            <SearchBox
              value={server.state.Search}
              onSearch={(Search) => server.onStateChange({ ...server.state, Search, PageIndex: 0 })}
            />
          )}
        </div>
      )}
      <div className="data-table-scroll">
        <table aria-label={label} aria-busy={loading || undefined}>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const canSort = header.column.getCanSort();
                  const content = flexRender(header.column.columnDef.header, header.getContext());
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      className={priorityClass(header.column.columnDef.meta)}
                      aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : canSort ? "none" : undefined}
                    >
                      {canSort ? (
                        <button type="button" className="sort-button" onClick={header.column.getToggleSortingHandler()}>
                          {content}
                          <SortMark direction={sorted} />
                        </button>
                      ) : (
                        content
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td className="data-table-empty" colSpan={columns.length}>
                  {loading ? "Loading…" : emptyMessage}
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr
                  key={row.id}
                  className={[props.rowClassName?.(row.original), props.onRowClick ? "clickable" : undefined].filter(Boolean).join(" ") || undefined}
                  onClick={props.onRowClick ? () => props.onRowClick!(row.original) : undefined}
                >
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} className={priorityClass(cell.column.columnDef.meta)} data-label={headerText(cell.column.columnDef.header) ?? (cell.column.columnDef.meta as { label?: string } | undefined)?.label}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {server && (
        <Pager
          pageIndex={server.state.PageIndex}
          pageSize={server.state.PageSize}
          rowCount={server.rowCount}
          onPage={(PageIndex) => server.onStateChange({ ...server.state, PageIndex })}
        />
      )}
    </div>
  );
}

/** A column with `meta: { priority: "low" }` steps aside on tablets (531-1100 px), where the
 * table would otherwise scroll for columns a person rarely needs (issue 20). */
function priorityClass(meta: unknown): string | undefined {
  return (meta as { priority?: string } | undefined)?.priority === "low" ? "col-low-priority" : undefined;
}

/** A cell's label in the narrow (card) layout: its column's header when that is text, else the
 * column's `meta.label` (a header drawn as markup, e.g. with <wbr>). */
function headerText(header: unknown): string | undefined {
  return typeof header === "string" ? header : undefined;
}

function SortMark({ direction }: { direction: false | "asc" | "desc" }): ReactNode {
  return (
    <span className={`sort-mark ${direction || "none"}`} aria-hidden="true">
      {direction === "asc" ? "▲" : direction === "desc" ? "▼" : "↕"}
    </span>
  );
}

function PageSizeSelect({ value, options, onChange }: { value: number; options: number[]; onChange: (size: number) => void }) {
  const { t } = useLabels();
  const id = useId();
  return (
    <div className="page-size">
      <label htmlFor={id}>{t("Table_Show")}</label>
      <select id={id} value={value} onChange={(e) => onChange(Number(e.target.value))} aria-label={t("Table_RowsPerPage")}>
        {options.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
      <span aria-hidden="true">{t("Table_Entries")}</span>
    </div>
  );
}

/** Typing waits a moment before searching so every key press does not query the server. */
export const SEARCH_DELAY_MS = 400;

function SearchBox({ value, onSearch }: { value: string; onSearch: (text: string) => void }) {
  const id = useId();
  const [text, setText] = useState(value);
  // The address can change the search too (back button): follow it.
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => onSearch(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);
  return (
    <div className="search-box">
      <label htmlFor={id}>Search</label>
      <input
        id={id}
        type="search"
        maxLength={MAX_SEARCH_CHARS}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => e.key === "Enter" && onSearch(text)}
      />
    </div>
  );
}
