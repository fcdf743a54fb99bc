import { useCallback, useMemo } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLocation, useNavigate } from "react-router";
import { readTableState, tableRequest, writeTableState, type TableRequest, type TableResponse, type TableState } from "../../lib/wasm";

export interface ServerTableOptions<Row, Request> {
  /** The list's prefix in the address (wasm-core's table state). */
  listId: string;
  defaults: TableState;
  /** The area's query key of this list (e.g. ["users", "table"]); the request is appended. */
  queryKey: readonly unknown[];
  fetchPage: (request: Request, signal: AbortSignal) => Promise<TableResponse<Row>>;
  /** The request for a table state (default: wasm-core's tableRequest), e.g. with a filter. */
  request?: (state: TableState) => Request;
  /** Refresh the page by itself this often (ms); such refreshes show no loading state. */
  refetchInterval?: number;
}

/** A server-driven table (STYLE.md: page, sort, search and filters live in the address, read
 * and written by wasm-core's table state): the state, its change handler and the page of rows
 * from the server (TanStack Query; the last page stays on screen while the next one loads). */
export function useServerTable<Row, Request = TableRequest>({ listId, defaults, queryKey, fetchPage, request, refetchInterval }: ServerTableOptions<Row, Request>) {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = useMemo(() => readTableState(location.search, listId, defaults), [location.search, listId, defaults]);
  const body = request ? request(state) : (tableRequest(state) as Request);
  const query = useQuery({
    queryKey: [...queryKey, body],
    queryFn: ({ signal }) => fetchPage(body, signal),
    placeholderData: keepPreviousData,
    refetchInterval,
    staleTime: 0,
  });
  const onStateChange = useCallback(
    (next: TableState) => navigate({ search: writeTableState(location.search, listId, next) }),
    [location.search, navigate, listId],
  );
  const key = JSON.stringify(queryKey);
  const reload = useCallback(() => queryClient.invalidateQueries({ queryKey: JSON.parse(key) as unknown[] }), [queryClient, key]);
  return {
    state,
    onStateChange,
    data: query.data?.Data ?? [],
    rowCount: Number(query.data?.FilteredCount ?? 0),
    loading: refetchInterval ? query.isPending : query.isFetching,
    /** Reads every page of this list again (after a change to its rows). */
    reload,
  };
}
