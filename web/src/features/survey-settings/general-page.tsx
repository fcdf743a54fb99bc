import { useWatch } from "react-hook-form";
import { fieldsOf, Section, SettingsForm, useSettingsFormContext, useSettingsGroup } from "../../components/settings-form";
import type { SelectOption } from "../../components/form";
import type { SurveyGeneral } from "../../lib/wasm";
import { useAlternateColumns, useAvailableLocations, useFamilyTreeSurveys, useProcedures } from "./api/lookups";
import { SelectRows } from "./components/select-rows";

const Field = fieldsOf<SurveyGeneral>();
const ALIGNMENTS = ["Left", "Center", "Right", "Justify"].map((a) => ({ value: a, label: a }));
const NOT_FOUND = " (Not found)";

/** Survey General Settings (spec 04 §2, §3, §5): every SurveyGeneral field on the settings kit;
 * which fields show and every message come from wasm-core (the server runs the same rules, and
 * refuses a mapping row naming a column it does not hold). */
export function GeneralPage() {
  const group = useSettingsGroup<SurveyGeneral>("SurveyGeneral");
  const locations = useAvailableLocations();
  const surveys = useFamilyTreeSurveys();
  const columns = useAlternateColumns();
  const locationOptions: SelectOption[] = locations.map((l) => ({ value: l.LocNum, label: l.LocName }));
  const surveyOptions: SelectOption[] = surveys.map((s) => ({ value: s.SurveyId, label: `${s.Name} (${s.SurveyId})` }));
  // spec 04 §2: inactive columns are disabled and shown with the suffix '(Not found)'.
  const columnOptions: SelectOption[] = Object.entries(columns).map(([column, found]) => ({
    value: column,
    label: found ? column : `${column}${NOT_FOUND}`,
    disabled: !found,
  }));
  return (
    <SettingsForm group={group} label="Survey General Settings">
      <fieldset>
        <legend>Survey screen</legend>
        <Field name="HidePatientNameInSurvey" label="Hide patient name in survey" />
        <Field name="AutoAdvanceInSurveyEnabled" label="Auto advance to the next page after a single-choice answer" />
        <Field name="IsAskPathChangeConfirmation" label="Ask for confirmation when an answer changes the survey path" />
        <Field name="IsDisplayPatientNameAndMrnOnSurveyThankYouScreen" label="Display patient name and MRN on the thank-you screen" />
        <Field name="IsUseLungViewHomeIcon" label="Use the LungView home icon" />
        <Field name="IsOverridePatientsEmailAddrValue" label="Override the patient's email address with the survey's answer" />
      </fieldset>
      <fieldset>
        <legend>Numeric keypad</legend>
        <Field name="DisableSmartNumPad" label="Disable smart numeric keypad" />
        <Field name="DisableNumPadObjectsMobile" label="Disable numeric keypad on phones" />
        <Field name="DisableNumPadObjectsTablet" label="Disable numeric keypad on tablets" />
        <Field name="DisableNumPadObjectsDesktop" label="Disable numeric keypad on desktops" />
      </fieldset>
      <fieldset>
        <legend>Survey PIN</legend>
        <Field name="IsNeverExpirePin" label="PINs never expire" />
        <Field name="PinExpirationSeconds" label="PIN expiration (seconds)" kind="number" step="any" />
      </fieldset>
      <fieldset>
        <legend>Starting a survey</legend>
        <Field name="IsSurveySelectPatientMode" label="Staff select the patient (select patient mode)" />
        <Field name="SurveyAdminPin" label="Survey admin PIN" description="Digits, at most 6." />
        <Field name="IsHideFutureDatedStudies" label="Hide future-dated studies" />
        <Field name="ShowStartSurveyForLatestStudyOnly" label="Offer the latest study only" />
        <Field name="SearchForPatientUsingAlternateUserIdentifier" label="Search patients by alternate identifier" />
        <Field name="StartSurveyPatientsSearchResultWithoutSsn" label="Patient search results without SSN" />
        <Field name="DefaultSurvey" label="Default survey" options={[{ value: "", label: "None" }, ...surveyOptions]} />
        <Field name="IsSurveyPerLocationEnabled" label="Enable survey per location" />
        <SelectRows
          name="SurveyPerLocation"
          legend="Survey per location"
          columns={[
            { key: "Key", label: "Location", options: locationOptions },
            { key: "Value", label: "Survey", options: surveyOptions },
          ]}
        />
      </fieldset>
      <fieldset>
        <legend>Standalone risk</legend>
        <Field name="StandaloneRiskEnabled" label="Standalone risk assessment" />
        <Field name="StandaloneRiskDefaultLocation" label="Default location" options={[{ value: "", label: "None" }, ...locationOptions]} />
        <StandaloneProcedure />
      </fieldset>
      <fieldset>
        <legend>Summary report</legend>
        <Field name="GenerateSummaryReport" label="Generate summary report" />
        <Field name="SummaryPdfHeaderText" label="Summary PDF header text" />
        <Field name="IsAddPageNumberToSummaryPdf" label="Add page numbers" />
        <Field name="PdfPageNumberFontSize" label="Page number font size" kind="number" min={1} step="any" />
        <Field name="PdfPageNumberAlignment" label="Page number alignment" options={ALIGNMENTS} />
        <Field name="IsAddHeaderToAllPagesToSummaryPdf" label="Header on every page" />
        <Field name="GenerateSummaryFormReport" label="Generate summary form report" />
        <Field name="SummaryFormPdfTopMargin" label="Summary form top margin" description="A number, at most 6 characters." />
        <Field name="SummaryFormPdfBottomMargin" label="Summary form bottom margin" description="A number, at most 6 characters." />
      </fieldset>
      <Section legend="Risk model (stored for the clinical system)" fields={[]}>
        <p className="field-hint settings-note">
          These settings are kept for the clinical system's risk engine; this portal stores and checks them but runs no risk model.
        </p>
        <Field name="NciTcThreshold" label="NCI / Tyrer-Cuzick threshold (%)" kind="number" step="any" />
        <Field name="IsNciTcAlwaysLoadTc" label="Always load Tyrer-Cuzick" />
        <Field name="IsNciTcAlwaysSkipTc" label="Always skip Tyrer-Cuzick" />
        <Field name="IsStoreRiskTriggerDisabledForSurveySubmit" label="Do not store the risk trigger on survey submit" />
        <Field name="IsStoreProcessingUnaffectedRelativesDisabledForSurveySubmit" label="Do not process unaffected relatives on survey submit" />
      </Section>
      <SelectRows
        name="LocationToMrnColumnMapping"
        legend="Location to MRN column mapping"
        columns={[
          { key: "LocNum", label: "Location", options: locationOptions },
          { key: "Column", label: "Column", options: columnOptions },
        ]}
      />
    </SettingsForm>
  );
}

/** The default procedure, and its side only when the chosen procedure asks for one (spec 04 §2). */
function StandaloneProcedure() {
  const { Procedures, Sides } = useProcedures();
  const { hidden } = useSettingsFormContext();
  const code = useWatch({ name: "StandaloneRiskDefaultProcedure" }) as string | undefined;
  const asksSide = Procedures.some((p) => p.Code === code && p.AskSide);
  return (
    <>
      <Field
        name="StandaloneRiskDefaultProcedure"
        label="Default procedure"
        options={[{ value: "", label: "None" }, ...Procedures.map((p) => ({ value: p.Code, label: p.Description }))]}
      />
      {asksSide && !hidden.includes("StandaloneRiskDefaultSide") && (
        <Field name="StandaloneRiskDefaultSide" label="Side" options={[{ value: "", label: "None" }, ...Sides.map((s) => ({ value: s.Code, label: s.Name }))]} />
      )}
    </>
  );
}
