import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { EmailLetter, EmailLetterRow } from "../../../lib/wire";

/** Query keys of the notification templates area. */
export const emailLettersKey = ["notice-templates", "email-letters"] as const;

const key = (id: number, location: number) => `id=${encodeURIComponent(id)}&location=${encodeURIComponent(location)}`;

/** GET /magview.api/emailLetters (spec 03 §7). */
export function listEmailLetters(): Promise<EmailLetterRow[]> {
  return api.get<EmailLetterRow[]>("/magview.api/emailLetters");
}

/** GET /magview.api/emailLetters/details?id&location. */
export function getEmailLetter(id: number, location: number): Promise<EmailLetter> {
  return api.get<EmailLetter>(`/magview.api/emailLetters/details?${key(id, location)}`);
}

/** PUT /magview.api/emailLetters?id&location; 400 (field messages) and 409 are shown by the modal. */
export function putEmailLetter(letter: EmailLetter): Promise<EmailLetter> {
  return api.put<EmailLetter>(`/magview.api/emailLetters?${key(letter.Id ?? 0, letter.Location ?? 0)}`, letter, { handles: [400, 409] });
}

export const emailLettersQuery = queryOptions({ queryKey: emailLettersKey, queryFn: listEmailLetters, staleTime: 0 });

export function useEmailLetter(id: number, location: number) {
  return useQuery({ queryKey: [...emailLettersKey, id, location], queryFn: () => getEmailLetter(id, location), staleTime: 0, gcTime: 0 });
}

export function useEmailLetters() {
  const queryClient = useQueryClient();
  const query = useQuery(emailLettersQuery);
  return {
    letters: query.data ?? [],
    loading: query.isFetching,
    reload: () => queryClient.invalidateQueries({ queryKey: emailLettersKey }),
  };
}
