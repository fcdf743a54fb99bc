import { useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { TemplateTranslation } from "../../../lib/wire";

/** Which template a language text belongs to: a portal template (Location 0) or an
 * imaging-system email template (Id and Location). */
export interface TemplateKey {
  Type: "Portal" | "EmailLetter";
  Id: number;
  Location: number;
}

const query = (k: TemplateKey, language: string) =>
  `Type=${encodeURIComponent(k.Type)}&Id=${encodeURIComponent(k.Id)}&Location=${encodeURIComponent(k.Location)}&Language=${encodeURIComponent(language)}`;

/** GET /api/notificationTemplate/language (issue 21): the text in one language and its Source. */
export function getTemplateLanguage(k: TemplateKey, language: string): Promise<TemplateTranslation> {
  return api.get<TemplateTranslation>(`/api/notificationTemplate/language?${query(k, language)}`);
}

/** POST /api/notificationTemplate/language; 400 (field messages) and 409 are shown by the editor. */
export function saveTemplateLanguage(text: TemplateTranslation): Promise<TemplateTranslation> {
  return api.post<TemplateTranslation>("/api/notificationTemplate/language", text, { handles: [400, 409] });
}

export function useTemplateLanguage(k: TemplateKey, language: string) {
  return useQuery({
    queryKey: ["notice-templates", "language", k.Type, k.Id, k.Location, language],
    queryFn: () => getTemplateLanguage(k, language),
    staleTime: 0,
    gcTime: 0,
  });
}
