import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { createColumnHelper } from "@tanstack/react-table";
import { createMemoryRouter, RouterProvider } from "react-router";
import { createQueryClient } from "../../app/query-client";
import { api } from "../../lib/api-client";
import type { TableRequest, TableResponse, TableState } from "../../lib/wasm";
import { DataTable } from "./data-table";
import { useServerTable } from "./use-server-table";

interface Row {
  Id: number;
  Name: string;
}
const column = createColumnHelper<Row>();
const columns = [column.accessor("Name", { header: "Name" })];
const DEFAULTS: TableState = { PageIndex: 0, PageSize: 10, SortColumn: "Name", SortDirection: "asc", Search: "", Filters: {} };
const fetchPage = (request: TableRequest & { Extra: string }, signal: AbortSignal) => api.post<TableResponse<Row>>("/api/things/datatable", request, { signal });

function Things() {
  const table = useServerTable({ listId: "things", defaults: DEFAULTS, queryKey: ["things"], fetchPage, request: (state) => ({ ...tableRequestOf(state), Extra: "x" }) });
  return (
    <>
      <button type="button" onClick={() => void table.reload()}>
        Reload
      </button>
      <DataTable mode="server" label="Things" columns={columns} data={table.data} rowCount={table.rowCount} loading={table.loading} state={table.state} onStateChange={table.onStateChange} getRowId={(r) => String(r.Id)} />
    </>
  );
}
// The request a page builds is its own business; here just the paging fields.
const tableRequestOf = (state: TableState) => ({ PageIndex: state.PageIndex, PageSize: state.PageSize }) as unknown as TableRequest;

afterEach(() => vi.unstubAllGlobals());

describe("useServerTable", () => {
  it("reads the state from the address, asks the server for that page and reloads on demand", async () => {
    const bodies: unknown[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
        const body = JSON.parse(String(init?.body));
        bodies.push(body);
        const rows = Array.from({ length: 10 }, (_, i) => ({ Id: body.PageIndex * 10 + i, Name: `Thing ${body.PageIndex * 10 + i}` }));
        return new Response(JSON.stringify({ Data: rows, TotalCount: 25, FilteredCount: 25, PageIndex: body.PageIndex, PageSize: 10 }));
      }),
    );
    const router = createMemoryRouter([{ path: "/things", element: <Things /> }], { initialEntries: ["/things?things_page=2"] });
    render(
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText("Thing 10")).toBeInTheDocument();
    expect(bodies[0]).toEqual({ PageIndex: 1, PageSize: 10, Extra: "x" });

    fireEvent.click(screen.getByRole("button", { name: "Page 3" }));
    expect(await screen.findByText("Thing 20")).toBeInTheDocument();
    expect(router.state.location.search).toContain("things_page=3");
    expect(bodies[1]).toEqual({ PageIndex: 2, PageSize: 10, Extra: "x" });

    fireEvent.click(screen.getByRole("button", { name: "Reload" }));
    await waitFor(() => expect(bodies).toHaveLength(3));
    expect(bodies[2]).toEqual(bodies[1]);
  });
});
