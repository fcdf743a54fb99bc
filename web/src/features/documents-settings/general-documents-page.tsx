import { ChoiceListField } from "../../components/form";
import { fieldsOf, Section, SettingsFormPart, SettingsFormSet, useSettingsGroup } from "../../components/settings-form";
import type {
  DocumentsAlternateDocumentTypeDescription,
  DocumentsColumnTitle,
  DocumentsEssential,
  DocumentsOther,
} from "../../lib/wasm";
import { useLocations } from "./api/locations";

const Essential = fieldsOf<DocumentsEssential>();
const Title = fieldsOf<DocumentsColumnTitle>();
const Alt = fieldsOf<DocumentsAlternateDocumentTypeDescription>();
const Other = fieldsOf<DocumentsOther>();

/** Documents Settings > general-documents (spec 03 §2, §3, §4): Essential Settings, Column
 * Titles, Alternate Document Types Descriptions and Other Settings, with one Save for the tab.
 * Each section is its own settings group; Save stores the four together or not at all (each at
 * the version it was read at: 409 when any changed meanwhile). The dependent fields show by
 * wasm-core's visibility rules. */
export function GeneralDocumentsPage() {
  const essential = useSettingsGroup<DocumentsEssential>("DocumentsEssential");
  const titles = useSettingsGroup<DocumentsColumnTitle>("DocumentsColumnTitle");
  const alt = useSettingsGroup<DocumentsAlternateDocumentTypeDescription>("DocumentsAlternateDocumentTypeDescription");
  const other = useSettingsGroup<DocumentsOther>("DocumentsOther");
  const locations = useLocations();
  const locationOptions = Object.entries(locations.data ?? {}).map(([num, name]) => ({ value: num, label: `${num} - ${name}` }));
  return (
    <SettingsFormSet groups={[essential, titles, alt, other]} label="General documents settings">
      <SettingsFormPart group={essential}>
        <Section legend="Essential Settings" fields={[]}>
          <Essential name="ShowOtherDocumentsTab" label="Show Other Documents tab" />
          <Essential name="ShowDoctorLettersToPatients" label="Show referring physician letters to patients" />
          <Essential name="ShowReferringPhysicianLettersWithOtherDocuments" label="Show referring physician letters with other documents" />
          <Essential name="DisableRSeqRDateGrouping" label="Disable RSeq / RDate grouping" />
          <Essential name="DocumentsIsShowRSeqWithDocType" label="Show RSeq with document type" />
          <Essential name="ACKOnView" label="Acknowledge on view" />
          <Essential name="AckOnViewDelay" label="Acknowledge on view delay (seconds)" kind="number" min={0} max={3600} />
          <Essential name="CombineDocViewAndReadColumns" label="Combine View and Read columns" />
          <Essential name="ShowReadColumn" label="Show Read column" />
          <Essential name="ShowAckColumn" label="Show Acknowledged column" />
          <Essential name="ShowAckWhenDisabled" label="Show Acknowledge button when disabled" />
          <Essential name="ShowPatNameColumn" label="Show Patient Name column" />
          <Essential name="ShowStudyDateColumn" label="Show Study Date column" />
          <Essential name="ShowStudyDescColumn" label="Show Study Description column" />
          <Essential name="ShowNotifTypeColumn" label="Show Sent By column" />
          <Essential name="ShowDateWhenSentColumn" label="Show Date Sent column" />
          <Essential name="UCSDMode" label="Compact view" />
          <Essential name="CompactViewDocumentsDescription" label="Compact view documents description" />
          <ChoiceListField
            name="DisabledResultsPortalLocations"
            label="Disabled results portal locations"
            description="Patients of these locations get no portal emails: new account, forgot password, referring physician, notification and recall letters."
            options={locationOptions}
          />
        </Section>
      </SettingsFormPart>
      <SettingsFormPart group={titles}>
        <Section legend="Column Titles" fields={[]}>
          <Title name="DocViewWhenColumnTitle" label="Date Sent column title" />
          <Title name="DocTypeColumnTitle" label="Letter Type column title" />
          <Title name="DocPatNameColumnTitle" label="Patient Name column title" />
          <Title name="DocStudyDateColTitle" label="Study Date column title" />
          <Title name="DocStudyDescColTitle" label="Study Description column title" />
          <Title name="DocNotifTypeColumnTitle" label="Sent By column title" />
          <Title name="DocViewColumnTitle" label="View column title" />
          <Title name="DocReadColumnTitle" label="Read column title" />
          <Title name="DocAckColumnTitle" label="Acknowledged column title" />
          <Title name="OtherDocDateColTitle" label="Other documents date column title" />
        </Section>
      </SettingsFormPart>
      <SettingsFormPart group={alt}>
        <Section legend="Alternate Document Types Descriptions" fields={[]}>
          <Alt name="AltDocDescRP" label="Referring physician letters" />
          <Alt name="AltDocDescNotification" label="Notification letters" />
          <Alt name="AltDocDescRecall" label="Recall letters" />
        </Section>
      </SettingsFormPart>
      <SettingsFormPart group={other}>
        <Section legend="Other Settings" fields={[]}>
          <Other name="DocViewDateFormat" label="Date format" description="A date pattern, e.g. EEEE, MMMM d, y or MM/dd/yyyy." />
          <Other name="DocViewBtnText" label="View button text" />
          <Other name="DocAckBtnText" label="Acknowledge button text" />
        </Section>
      </SettingsFormPart>
    </SettingsFormSet>
  );
}
