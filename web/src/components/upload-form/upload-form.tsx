import type { ReactNode } from "react";
import { FormProvider, type FieldValues, type UseFormReturn } from "react-hook-form";
import { FileField } from "../form";

export interface UploadFormProps<V extends FieldValues> {
  form: UseFormReturn<V>;
  /** The form's name and heading ('Upload Library'). */
  title: string;
  /** h2 on a page of its own, h3 inside a panel. */
  headingLevel?: 2 | 3;
  file: { name: string; label: string; accept: string };
  submitLabel: string;
  /** Disables the submit button (no file chosen yet, an upload running). */
  disabled: boolean;
  onSubmit: (e?: React.BaseSyntheticEvent) => Promise<void>;
  /** Fields shown before the file (e.g. the PDF form's Name). */
  before?: ReactNode;
  /** Fields shown after the file (e.g. the report template's options once a file is chosen). */
  after?: ReactNode;
  className?: string;
}

/** The upload form the admin file lists share (report templates, libraries, PDF forms): a heading,
 * the file and the fields that go with it (sent as one multipart form), and the submit button. */
export function UploadForm<V extends FieldValues>(props: UploadFormProps<V>) {
  const { form, title, headingLevel = 3, file, submitLabel, disabled, onSubmit, before, after, className } = props;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <FormProvider {...form}>
      <form className={`upload-form ${className ?? ""}`} onSubmit={onSubmit} aria-label={title} noValidate>
        <Heading className="upload-form-title">{title}</Heading>
        <div className="upload-form-fields">
          {before}
          <FileField name={file.name} label={file.label} accept={file.accept} />
        </div>
        {after}
        <div className="upload-form-actions">
          <button type="submit" className="button button-primary" disabled={disabled}>
            {submitLabel}
          </button>
        </div>
      </form>
    </FormProvider>
  );
}
