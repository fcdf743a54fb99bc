import { useState } from "react";
import { fieldsOf, SettingsForm, useSettingsGroup } from "../../components/settings-form";
import type { LoginPageSettings } from "../../lib/wasm";
import "./login-page-settings.css";

const Field = fieldsOf<LoginPageSettings>();
/** spec 03 §8: the login page form's own message. */
export const VALUES_NOT_VALID = "Values are not valid";

/** Login Page Settings (spec 03 §2, §3 LoginPageSettings, §4 "After a successful update the
 * preview reloads", §5 sizes and paddings are numbers >= 0). */
export function LoginPageSettingsPage() {
  const group = useSettingsGroup<LoginPageSettings>("LoginPageSettings");
  const [previewKey, setPreviewKey] = useState(0);
  return (
    <div className="login-page-settings">
      <SettingsForm
        group={group}
        label="Login Page Settings"
        submitLabel="Update"
        invalidMessage={VALUES_NOT_VALID}
        onSaved={() => setPreviewKey((k) => k + 1)}
      >
        <fieldset>
          <legend>Logo</legend>
          <Field name="LayoutLoginLogoWidth" label="Logo width (px)" kind="number" min={0} />
          <Field name="LayoutLoginLogoWidthMobile" label="Mobile logo width (px)" kind="number" min={0} />
          <Field name="LayoutLoginLogoTitle" label="Title" kind="text" />
        </fieldset>
        <fieldset>
          <legend>Logo paddings (px)</legend>
          <Field name="LayoutLoginLogoLeftPadding" label="Left" kind="number" min={0} />
          <Field name="LayoutLoginLogoTopPadding" label="Top" kind="number" min={0} />
          <Field name="LayoutLoginLogoRightPadding" label="Right" kind="number" min={0} />
          <Field name="LayoutLoginLogoBottomPadding" label="Bottom" kind="number" min={0} />
        </fieldset>
      </SettingsForm>
      <section className="panel login-preview" aria-label="Preview">
        <h2>Preview</h2>
        {/* A new key after each successful update loads the page again. */}
        <iframe key={previewKey} title="Patient login page preview" src={`/patient/login?preview=${previewKey}`} />
      </section>
    </div>
  );
}
