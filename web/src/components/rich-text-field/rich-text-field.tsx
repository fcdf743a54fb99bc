import { useEffect, useRef } from "react";
import { useController, useFormContext } from "react-hook-form";
import ReactQuill from "react-quill-new";
import "react-quill-new/dist/quill.snow.css";
import { FieldShell, useFieldMessages } from "../form";
import "./rich-text-field.css";

// spec 03 §2 Notification Templates lists the rich editor's toolbar; Other Settings' Help body and the
// notification templates use it.
const TOOLBAR = [
  ["bold", "italic", "strike"],
  [{ list: "ordered" }, { list: "bullet" }],
  [{ indent: "-1" }, { indent: "+1" }],
  ["blockquote"],
  [{ direction: "rtl" }],
  [{ header: [1, 2, 3, 4, 5, 6, false] }],
  [{ font: [] }],
  [{ align: [] }],
  ["clean"],
  ["link", "image"],
];

/** A settings field edited in Quill 2 (react-quill-new). `useSemanticHTML={false}` keeps spaces
 * as spaces (Quill 2.0.3 writes &nbsp; otherwise, slab/quill#4509). */
export function RichTextField({ name, label }: { name: string; label: string }) {
  const { control } = useFormContext();
  const { field } = useController({ name, control });
  const messages = useFieldMessages(name);
  const quill = useRef<ReactQuill>(null);
  // The editable area is the control: it carries the field's name for assistive technology.
  useEffect(() => {
    const root = quill.current?.getEditor().root;
    root?.setAttribute("role", "textbox");
    root?.setAttribute("aria-multiline", "true");
    root?.setAttribute("aria-label", label);
    // Quill's drop-down pickers are spans with role=button and no name: name them.
    const toolbar = (quill.current?.getEditor().getModule("toolbar") as { container?: HTMLElement } | undefined)?.container;
    for (const [picker, name] of [
      ["ql-header", "Heading"],
      ["ql-font", "Font"],
      ["ql-align", "Alignment"],
    ]) {
      toolbar?.querySelector(`.ql-picker.${picker} .ql-picker-label`)?.setAttribute("aria-label", name);
    }
  }, [label]);
  return (
    <FieldShell label={label} messages={messages} className="rich-text-field">
      {({ id, describedBy }) => (
        <div aria-describedby={describedBy}>
          <ReactQuill
            ref={quill}
            id={id}
            theme="snow"
            value={typeof field.value === "string" ? field.value : ""}
            onChange={(html, _delta, source) => {
              // Quill reports its own first render as a change; only the user's edits count.
              if (source === "user") field.onChange(html === "<p><br></p>" ? "" : html);
            }}
            onBlur={() => field.onBlur()}
            modules={{ toolbar: TOOLBAR }}
            useSemanticHTML={false}
          />
        </div>
      )}
    </FieldShell>
  );
}
