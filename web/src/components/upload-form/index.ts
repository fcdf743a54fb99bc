import "./upload-form.css";

export { DeleteButton, useConfirmDelete, type ConfirmDeleteOptions } from "./confirm-delete";
export { UploadForm, type UploadFormProps } from "./upload-form";
