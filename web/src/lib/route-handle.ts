import { useMatches } from "react-router";

/** Route metadata shown in the shell header (spec 01 §2.1: page title and subtitle). */
export interface RouteHandle {
  title: string;
  subtitle?: string;
  /** Patient pages: the label keys of the title and subtitle (shown in the patient's language). */
  titleKey?: string;
  subtitleKey?: string;
}

/** The deepest matched route that names a title. */
export function useRouteHandle(): RouteHandle | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle as RouteHandle | undefined;
    if (handle?.title) return handle;
  }
  return undefined;
}
