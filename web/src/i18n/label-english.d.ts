declare module "virtual:label-english" {
  /** key -> English text of every shipped label (web/vite/label-english.ts). */
  const english: Record<string, string>;
  export default english;
}
