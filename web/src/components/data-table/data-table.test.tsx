import { describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { createColumnHelper } from "@tanstack/react-table";
import { DataTable, SEARCH_DELAY_MS } from "./data-table";
import { readTableState, type TableState } from "../../lib/wasm";

interface Row {
  name: string;
  city: string;
}
const column = createColumnHelper<Row>();
const columns = [column.accessor("name", { header: "Name" }), column.accessor("city", { header: "City" })];
const rows: Row[] = [
  { name: "Carla", city: "Boston" },
  { name: "Anna", city: "Denver" },
  { name: "Bea", city: "Austin" },
];

function bodyTexts(): string[] {
  const table = screen.getByRole("table");
  return within(table)
    .getAllByRole("row")
    .slice(1)
    .map((row) => within(row).getAllByRole("cell")[0].textContent ?? "");
}

describe("DataTable in client mode", () => {
  it("sorts by the first column ascending, and the other way on a header click", () => {
    render(<DataTable mode="client" label="People" columns={columns} data={rows} />);
    expect(bodyTexts()).toEqual(["Anna", "Bea", "Carla"]);
    expect(screen.getByRole("columnheader", { name: /Name/ })).toHaveAttribute("aria-sort", "ascending");

    fireEvent.click(screen.getByRole("button", { name: /Name/ }));
    expect(bodyTexts()).toEqual(["Carla", "Bea", "Anna"]);

    fireEvent.click(screen.getByRole("button", { name: /City/ }));
    expect(bodyTexts()).toEqual(["Bea", "Carla", "Anna"]);
    expect(screen.queryByRole("navigation", { name: "Pagination" })).toBeNull();
  });

  it("says when there is nothing to show", () => {
    render(<DataTable mode="client" label="People" columns={columns} data={[]} emptyMessage="Nobody here." />);
    expect(screen.getByText("Nobody here.")).toBeInTheDocument();
  });
});

describe("DataTable in server mode", () => {
  // The state shape comes from wasm-core itself, the same way the pages build it.
  const defaults = readTableState("", "people", {
    PageIndex: 0,
    PageSize: 10,
    SortColumn: "name",
    SortDirection: "asc",
    Search: "",
    Filters: {},
  } satisfies TableState);

  function setup(state: TableState = defaults, rowCount = 35) {
    const onStateChange = vi.fn<(next: TableState) => void>();
    render(
      <DataTable
        mode="server"
        label="People"
        columns={columns}
        data={rows}
        rowCount={rowCount}
        state={state}
        onStateChange={onStateChange}
      />,
    );
    return onStateChange;
  }

  it("shows the rows in the order the server sent them and numbered pages", () => {
    setup();
    expect(bodyTexts()).toEqual(["Carla", "Anna", "Bea"]);
    expect(screen.getByText("Showing 1 to 10 of 35 entries")).toBeInTheDocument();
    const pager = screen.getByRole("navigation", { name: "Pagination" });
    expect(within(pager).getByRole("button", { name: "Page 1" })).toHaveAttribute("aria-current", "page");
    expect(within(pager).getByRole("button", { name: "Page 4" })).toBeInTheDocument();
    expect(within(pager).getByRole("button", { name: "Previous" })).toBeDisabled();
  });

  it("asks for another page with the page buttons", () => {
    const onStateChange = setup();
    fireEvent.click(screen.getByRole("button", { name: "Page 3" }));
    expect(onStateChange).toHaveBeenLastCalledWith(expect.objectContaining({ PageIndex: 2, PageSize: 10 }));
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(onStateChange).toHaveBeenLastCalledWith(expect.objectContaining({ PageIndex: 1 }));
  });

  it("asks the server to sort on a header click, flipping the direction on the sorted column", () => {
    const onStateChange = setup({ ...defaults, PageIndex: 2 });
    fireEvent.click(screen.getByRole("button", { name: /Name/ }));
    expect(onStateChange).toHaveBeenLastCalledWith(
      expect.objectContaining({ SortColumn: "name", SortDirection: "desc", PageIndex: 0 }),
    );
    fireEvent.click(screen.getByRole("button", { name: /City/ }));
    expect(onStateChange).toHaveBeenLastCalledWith(expect.objectContaining({ SortColumn: "city", SortDirection: "asc" }));
  });

  it("calls back when the page size changes, starting again on the first page", () => {
    const onStateChange = setup({ ...defaults, PageIndex: 3 });
    fireEvent.change(screen.getByRole("combobox", { name: "Rows per page" }), { target: { value: "25" } });
    expect(onStateChange).toHaveBeenLastCalledWith(expect.objectContaining({ PageSize: 25, PageIndex: 0 }));
  });

  it("searches after a short pause in typing", () => {
    vi.useFakeTimers();
    try {
      const onStateChange = setup();
      fireEvent.change(screen.getByRole("searchbox", { name: "Search" }), { target: { value: "ann" } });
      expect(onStateChange).not.toHaveBeenCalled();
      act(() => vi.advanceTimersByTime(SEARCH_DELAY_MS));
      expect(onStateChange).toHaveBeenLastCalledWith(expect.objectContaining({ Search: "ann", PageIndex: 0 }));
    } finally {
      vi.useRealTimers();
    }
  });
});
