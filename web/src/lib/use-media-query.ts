import { useSyncExternalStore } from "react";

/** Whether `query` (a CSS media query) matches now; follows changes (a rotated phone). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** The phone layout's width (the data tables turn into cards at the same width). */
export const PHONE_QUERY = "(max-width: 530px)";
