import { lazy, Suspense } from "react";
import { useWatch } from "react-hook-form";
import { useSession } from "../../app/session";
import { fieldsOf, SettingsForm, useSettingsGroup } from "../../components/settings-form";
import type { OtherSettings } from "../../lib/wasm";

const Field = fieldsOf<OtherSettings>();
// Quill (and its stylesheet) load only with this page, so no other page's bundle grows.
const RichTextField = lazy(() => import("../../components/rich-text-field/rich-text-field").then((m) => ({ default: m.RichTextField })));

/** Other Settings (spec 03 §2, §3 OtherSettings). The Help body is rich text, sanitised on the
 * server (ammonia, Quill's own classes only) before it is stored. */
export function OtherSettingsPage() {
  const group = useSettingsGroup<OtherSettings>("OtherSettings");
  const { reload } = useSession();
  return (
    <SettingsForm group={group} label="Other Settings" onSaved={() => void reload()}>
      <fieldset>
        <legend>Self registration</legend>
        <Field name="IsAllowedToShowLoginLinkWhenSelfRegistered" label="Allow login link after self registration" kind="checkbox" />
      </fieldset>
      <fieldset>
        <legend>My Account menu</legend>
        <Field name="IsAllowedToShowEmailResetLink" label="Allow email reset link in the My Account menu" kind="checkbox" />
        <ResetLinkText />
      </fieldset>
      <fieldset>
        <legend>Users list</legend>
        <Field name="UsersListSsnColumnName" label="Users list SSN column name" kind="text" />
      </fieldset>
      <fieldset>
        <legend>Help</legend>
        <Field name="IsAllowedToShowHelpButton" label="Allow Help button" kind="checkbox" />
        <Suspense fallback={<p>Loading the editor…</p>}>
          <RichTextField name="HelpModalContent" label="Help window body content" />
        </Suspense>
      </fieldset>
    </SettingsForm>
  );
}

/** The link text shows with its switch (the rule that it is then required is wasm-core's). */
function ResetLinkText() {
  const shown = useWatch<OtherSettings, "IsAllowedToShowEmailResetLink">({ name: "IsAllowedToShowEmailResetLink" });
  if (!shown) return null;
  return <Field name="EmailResetLink" label="Email reset link text" kind="text" />;
}
