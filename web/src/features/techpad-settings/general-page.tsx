import { fieldsOf, SettingsForm } from "../../components/settings-form";
import { enumLabel, type TechpadGeneral } from "../../lib/wasm";
import { AlternateIdentifierCheck } from "./alternate-identifier-check";
import { useTechpadGroup } from "./techpad-group";

const Field = fieldsOf<TechpadGeneral>();

// spec 04 §3: barcode types and default worklist tabs (name = value); completed may go back to
// ExamWaiting (default) or ExamIncomplete (§4).
const BARCODE_TYPES = [
  { value: "28", label: "CODE128" },
  { value: "29", label: "CODE128A" },
  { value: "30", label: "CODE128B" },
  { value: "10", label: "CODE39" },
  { value: "11", label: "CODE39Extended" },
];
const WORKLIST_TABS = [
  { value: "1", label: "Exam" },
  { value: "3", label: "Demographic" },
  { value: "4", label: "History" },
  { value: "6", label: "Diagram" },
  { value: "7", label: "Comments" },
  { value: "8", label: "Documents" },
  { value: "9", label: enumLabel("FollowUps") },
  { value: "11", label: "Risk" },
];
const FROM_COMPLETED = [
  { value: "ExamWaiting", label: enumLabel("ExamWaiting") },
  { value: "ExamIncomplete", label: enumLabel("ExamIncomplete") },
];
/** spec 04 §3: the time display choice. */
export const TIME_DISPLAY = ["Always HH:MM:SS", "Days when over 24 hours"] as const;

/** Techpad General Settings (spec 04 §2, §3 "Techpad general settings"). */
export function TechpadGeneralPage() {
  const group = useTechpadGroup<TechpadGeneral>("General");
  return (
    <SettingsForm group={group} label="Techpad General Settings">
      <h2 className="section-title">Techpad General Settings</h2>
      <fieldset>
        <legend>Exam</legend>
        <Field name="IsUpdateStudyRISHoldOnEndExam" label="Update study RIS hold on end exam" />
        <Field name="IsUpdateStudyT_EndOnEndExam" label="Update study T_End on end exam" />
        <Field name="IsUpdateStudyOnMarkAsCompleted" label="Update study on mark as completed" />
        <Field name="HideStartAndEndButtons" label="Hide Start and End buttons" />
        <Field name="HideSkipAndStartButtons" label="Hide Skip and Start buttons" />
        <Field name="DisableRequiringStudyFields" label="Disable requiring study fields" />
        <Field name="ShowSelectSecondTechnologist" label="Show select second technologist" />
        <Field name="ShowSelectThirdTechnologist" label="Show select third technologist" />
        <Field name="IsValidateReqiuredFieldsOnEverySave" label="Validate required fields on every save" />
        <Field name="IsValidateHistoryResultField" label="Validate history result field" />
        <Field name="IsAllowedStatusToBeChangedFromCompleted" label="Allow status to be changed from completed" />
        <Field name="AllowedStatusToBeChangedFromCompleted" label="Status allowed from completed" options={FROM_COMPLETED} />
      </fieldset>
      <fieldset>
        <legend>Menu and tabs</legend>
        <Field name="IsShowDemoMenuItem" label="Show Demo menu item" />
        <Field name="IsShowPatientsMenuItem" label="Show Patients menu item" />
        <Field name="ShowSpeedTestTab" label="Show speed test tab" />
        <Field name="IsShowChatMenuItem" label="Show Chat menu item" />
        <Field name="ChatServiceUrl" label="Chat service url" />
        <Field name="DefaultWorklistTab" label="Default worklist tab" options={WORKLIST_TABS} />
        <Field name="IsTechpadDemoMode" label="Techpad demo mode" />
      </fieldset>
      <fieldset>
        <legend>Worklist</legend>
        <Field name="EnableWorklistPatientsDataSync" label="Enable worklist patients data sync" />
        <Field name="GroupExamTypeWorklistFilter" label="Group exam type worklist filter" />
        <Field name="ShowAppointmentTime" label="Show appointment time" />
        <Field name="AuditWorklistApiCall" label="Audit worklist API call" />
        <Field name="IsStoreRiskTriggerDisabledForWorklistSave" label="Disable store risk trigger for worklist save" />
        <Field name="ShowBothTotalTimeAndLastStatusTimeInWorklist" label="Show both total time and last status time" />
        <Field name="ShowDetailTimeInWorklist" label="Time display" kind="choice" choices={TIME_DISPLAY} />
        <Field name="HideDetailStatusTimeInWorklist" label="Hide detail status time" />
        <Field name="ShowDetailCommentTimeInWorklist" label="Show detail comment time" />
        <Field name="WorklistPrioritizingAccuracy" label="Worklist prioritizing accuracy" min={1} />
        <Field name="HistoryLoadRetries" label="History load retries" min={0} />
      </fieldset>
      <fieldset>
        <legend>History and documents</legend>
        <Field name="IsIncludePersonalBRCAHistory" label="Include personal BRCA history" />
        <Field name="IsValidatePersonalBrcaHistory" label="Validate personal BRCA history" />
        <Field name="IsIncludeFamilyBRCAHistory" label="Include family BRCA history" />
        <Field name="IsDocumentsCreationAbilityEnabled" label="Documents creation enabled" />
        <Field name="IsContactDocumentsCreationAbilityEnabled" label="Contact documents creation enabled" />
        <Field name="IsContactDocumentsDeletionAbilityEnabled" label="Contact documents deletion enabled" />
        <Field name="IsLoadDocumentsOnEachTabClick" label="Load documents on each tab click" />
      </fieldset>
      <fieldset>
        <legend>Barcode</legend>
        <Field name="IsShowBarcodeForAccessionNumber" label="Show barcode for accession number" />
        <Field name="BarcodeType" label="Barcode type" options={BARCODE_TYPES} />
      </fieldset>
      <fieldset>
        <legend>Diagram</legend>
        <Field name="IsEnabledTechpadDiagramRedirection" label="Enable techpad diagram redirection" />
        <Field name="TechpadDiagramRedirectURL" label="Techpad diagram redirect URL" />
        <Field name="IsDarkModeDiagramDisabled" label="Disable dark mode diagram" />
        <Field name="CarryForwardTechpadDiagram" label="Carry forward techpad diagram" />
      </fieldset>
      <fieldset>
        <legend>Family tree</legend>
        <Field name="FamilyTree" label="Family tree" />
        <Field name="FamilyTreeSurveyName" label="Family tree survey name" />
        <Field name="FamilyTreeEnabledCodeList" label="Family tree enabled code list" />
        <Field name="IsShowTyrerCuzikTab" label="Show Tyrer-Cuzick tab" />
      </fieldset>
      <fieldset>
        <legend>Session and sign-in</legend>
        <Field name="SessionExpirationTimeout" label="Session expiration timeout (minutes)" min={0} />
        <Field name="SessionWarnTimeout" label="Session warn timeout (minutes)" min={0} />
        <Field name="UseAlternateUserIdentifier" label="Use alternate user identifier" />
        <Field name="AlternateUserIdentifierField" label="Alternate user identifier field" />
        <AlternateIdentifierCheck />
        <Field name="IsLdapAuthenticationEnabled" label="LDAP authentication" />
        <Field name="LdapDomain" label="LDAP domain" />
      </fieldset>
    </SettingsForm>
  );
}
