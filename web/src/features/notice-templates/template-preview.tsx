import { previewNotice } from "../../lib/wasm-settings";

/** The template as the demo patient would receive it, rendered by the notifications engine's
 * own rule (wasm-core). The HTML is shown in a sandboxed frame: no script, no same origin. */
export function TemplatePreview({ subject, body }: { subject: string; body: string }) {
  const preview = previewNotice(subject, body);
  return (
    <section className="template-preview" aria-label="Preview">
      <h3>Preview (demo patient Jane Sample)</h3>
      <p>
        <strong>Subject:</strong> {preview.Subject}
      </p>
      <iframe title="Email preview" sandbox="" srcDoc={preview.Html} />
      <details>
        <summary>Text version (text notifications)</summary>
        <pre>{preview.Text}</pre>
      </details>
    </section>
  );
}
