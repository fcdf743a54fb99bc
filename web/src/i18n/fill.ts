/** A label text with its `{name}` placeholders replaced (wasm-core/labels/README.md: every
 * language keeps the same placeholders). */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
