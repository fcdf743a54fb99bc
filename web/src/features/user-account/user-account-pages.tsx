import { fieldsOf, SettingsForm, useSettingsGroup } from "../../components/settings-form";
import { useSession } from "../../app/session";
import type {
  UserAccountPassword,
  UserAccountPatientPortalOptions,
  UserAccountSwitchUserOptions,
  UserAccountUserAccountVerification,
  UserAccountUsernameValidation,
} from "../../lib/wasm";

// spec 03 §2 "User Account pages" and §3 (UserAccount* groups). Each page is its group's form;
// the rules (§5 required, digits only, 0 = disabled) are wasm-core's. A saved group takes effect
// at once: the server reads it on the next request, and the shell reloads the session so the
// menu follows (DisableChangePasswordMenu).

const Switch = fieldsOf<UserAccountSwitchUserOptions>();
export function SwitchUserOptionsPage() {
  const group = useSettingsGroup<UserAccountSwitchUserOptions>("UserAccountSwitchUserOptions");
  const { reload } = useSession();
  return (
    <SettingsForm group={group} label="Switch User Options" onSaved={() => void reload()}>
      <fieldset>
        <legend>Switch user options</legend>
        <Switch name="AllowToSwitchLinkedAccounts" label="Allow to switch linked accounts" kind="checkbox" />
        <Switch name="AllowToChangeUserInfo" label="Allow to change user info" kind="checkbox" />
        <Switch name="IsCernerOAuthEnabled" label="Cerner OAuth enabled" kind="checkbox" />
        <Switch name="ShowFrontDeskReports" label="Show Reports for ClientAdmin users" kind="checkbox" />
      </fieldset>
    </SettingsForm>
  );
}

const Password = fieldsOf<UserAccountPassword>();
export function PasswordSettingsPage() {
  const group = useSettingsGroup<UserAccountPassword>("UserAccountPassword");
  const { reload } = useSession();
  return (
    <SettingsForm group={group} label="Password Settings" onSaved={() => void reload()}>
      <fieldset>
        <legend>Password complexity</legend>
        <Password name="UseComplexityRequirements" label="Use complexity requirements" kind="checkbox" />
        <Password name="LenNeeded" label="Minimum length" kind="number" min={0} step={1} />
        <Password name="NumNeeded" label="Digits needed" kind="number" min={0} step={1} />
        <Password name="UcaseNeeded" label="Uppercase letters needed" kind="number" min={0} step={1} />
        <Password name="SymNeeded" label="Special characters needed" kind="number" min={0} step={1} />
      </fieldset>
      <fieldset>
        <legend>Lockout and reset</legend>
        <Password name="IDFailMax" label="Failed sign-ins before lockout (IDFailMax, 0 = disabled)" kind="number" min={0} step={1} />
        <Password name="IDFailureURL" label="Lockout page address (IDFailureURL)" kind="text" />
        <Password
          name="ResetKeyExpirationInSeconds"
          label="Reset link expiration in seconds (0 = never expires)"
          kind="number"
          min={0}
          step={1}
        />
        <Password name="ResetPasswordRedirectUrl" label="Address after a password reset" kind="text" />
      </fieldset>
      <fieldset>
        <legend>Change password form</legend>
        <Password name="NewPasswordString" label="New password field label" kind="text" />
        <Password name="NewPasswordAgainString" label="Repeat new password field label" kind="text" />
        <Password name="DisableChangePasswordMenu" label="Disable the change password menu" kind="checkbox" />
      </fieldset>
      <fieldset>
        <legend>Two-step sign-in</legend>
        <Password
          name="RequireMfaForAdmins"
          label="Require two-step sign-in (authenticator app) for Program managers and Client admins"
          kind="checkbox"
        />
      </fieldset>
    </SettingsForm>
  );
}

const Verification = fieldsOf<UserAccountUserAccountVerification>();
export function UserAccountVerificationPage() {
  const group = useSettingsGroup<UserAccountUserAccountVerification>("UserAccountUserAccountVerification");
  return (
    <SettingsForm group={group} label="User Account Verification">
      <fieldset>
        <legend>Phone verification</legend>
        <Verification name="IsPhoneNumberPatientVerificationEnabled" label="Verify patients' phone numbers" kind="checkbox" />
        <Verification
          name="IsPhoneNumberVerificationRequiredForResetPassword"
          label="Phone verification required to reset a password"
          kind="checkbox"
        />
        <Verification name="VerificationAttemptsMax" label="Verification attempts (0 = disabled)" kind="number" min={0} step={1} />
        <Verification name="VerificationCodeRequestsMax" label="Code requests (0 = disabled)" kind="number" min={0} step={1} />
        <Verification name="VerificationCodeTimeoutInMinutes" label="Code timeout in minutes (0 = disabled)" kind="number" min={0} step={1} />
      </fieldset>
    </SettingsForm>
  );
}

const PatientOptions = fieldsOf<UserAccountPatientPortalOptions>();
export function PatientPortalOptionsPage() {
  const group = useSettingsGroup<UserAccountPatientPortalOptions>("UserAccountPatientPortalOptions");
  return (
    <SettingsForm group={group} label="Patient Portal Options">
      <fieldset>
        <legend>Date of birth</legend>
        <PatientOptions name="RequireDOB" label="Require date of birth" kind="checkbox" />
        <PatientOptions name="ForgotPasswordValidateDOB" label="Validate date of birth on forgot password" kind="checkbox" />
      </fieldset>
    </SettingsForm>
  );
}

const Username = fieldsOf<UserAccountUsernameValidation>();
export function UsernameValidationPage() {
  const group = useSettingsGroup<UserAccountUsernameValidation>("UserAccountUsernameValidation");
  return (
    <SettingsForm group={group} label="Username Validation">
      <fieldset>
        <legend>Username length</legend>
        <Username name="MinUsernameLength" label="Minimum username length" kind="number" min={0} step={1} />
        <Username name="MaxUsernameLength" label="Maximum username length" kind="number" min={1} step={1} />
      </fieldset>
    </SettingsForm>
  );
}
