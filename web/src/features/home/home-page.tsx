import { useMemo } from "react";
import { Link } from "react-router";
import { createColumnHelper } from "@tanstack/react-table";
import { useSession } from "../../app/session";
import { DataTable } from "../../components/data-table/data-table";
import {
  appointmentHeader,
  formatAppointment,
  formatDate,
  routeRedirect,
  zoneOf,
  type MenuItem,
  type NextAppointment,
} from "../../lib/wasm";
import { useNextAppointments } from "./api/get-next-appointments";
import { HomeContentPanel, PendingActionsPanel } from "./home-extra";
import { HOME_CONTENT_KEY, STAFF_HOME_CONTENT_KEY } from "./api/home-content";
import { PendingWorkPanel } from "./staff-work";
import { DateText, useLabels } from "../../i18n/labels";
import { fill } from "../../i18n/fill";
import "./home.css";

/** Home (spec 01 §2.2): a welcome with the user's name; patients see their next appointments. */
export function HomePage() {
  const { state } = useSession();
  const { t } = useLabels();
  if (state.status !== "signed-in") return null;
  const { userName, permissions, modules } = state.info;
  // Panels of a module that is off are not shown (the same rule that guards the routes).
  const has = (path: string) => routeRedirect(permissions, modules, path) === undefined;
  return (
    <>
      <section className="panel welcome">
        <h2>{permissions.IsPatient ? fill(t("Home_WelcomeName"), { name: userName }) : `Welcome, ${userName}`}</h2>
        <p>
          {permissions.IsPatient
            ? t("Home_PatientIntro")
            : "Use the menu to follow survey assignments and manage the portal."}
        </p>
      </section>
      {permissions.IsPatient && <PendingActionsPanel letters={has("/documents")} surveys={has("/medical-history")} />}
      {!permissions.IsPatient && <PendingWorkPanel notificationHistory={state.menu.some((m) => m.Path === "/admin/notification-history")} />}
      {permissions.IsPatient ? has("/appointments") && <NextAppointmentsPanel /> : <StaffShortcuts menu={state.menu} />}
      {/* Each audience has its own home content (issue 20); program managers edit both. */}
      {permissions.IsPatient ? (
        <HomeContentPanel canEdit={false} contentKey={HOME_CONTENT_KEY} label={t("Home_ContentLabel")} />
      ) : (
        <HomeContentPanel canEdit={permissions.IsProgramManager} contentKey={STAFF_HOME_CONTENT_KEY} label="Staff home page content" />
      )}
      {permissions.IsProgramManager && <HomeContentPanel canEdit contentKey={HOME_CONTENT_KEY} label="Patient home page content" />}
    </>
  );
}

const column = createColumnHelper<NextAppointment>();

function NextAppointmentsPanel() {
  // A failure is reported by the API client (error dialog or sign-in redirect).
  const { data: result, isPending: loading } = useNextAppointments();
  const { t, tMessage } = useLabels();
  const hideTime = result?.isHideAppointmentTimeInHistoryPortal ?? false;
  const timeHeader = tMessage(appointmentHeader(hideTime));
  const dayHeader = t("Home_DayColumn");
  const locationHeader = t("Home_LocationColumn");
  const columns = useMemo(
    () => [
      // Sorted by the instant itself; shown with wasm-core's appointment format (spec 01 §9).
      column.accessor("AppointmentDateTime", {
        id: "AppointmentDateTime",
        header: timeHeader,
        cell: (info) => <DateText text={formatAppointment(info.getValue(), hideTime, zoneOf(info.getValue()).offsetMinutes)} />,
      }),
      column.accessor("AppointmentDateTime", {
        id: "Day",
        header: dayHeader,
        enableSorting: false,
        cell: (info) => {
          const zone = zoneOf(info.getValue());
          return <DateText text={formatDate(info.getValue(), "LongDate", zone.offsetMinutes, zone.zoneAbbr)} />;
        },
      }),
      column.accessor("LocationName", { header: locationHeader }),
    ],
    [hideTime, timeHeader, dayHeader, locationHeader],
  );
  return (
    <section className="panel" aria-labelledby="next-appointments">
      <h2 id="next-appointments">{t("Home_NextAppointments")}</h2>
      <DataTable
        mode="client"
        label={t("Home_NextAppointments")}
        columns={columns}
        data={result?.nextAppointments ?? []}
        loading={loading}
        emptyMessage={t("Home_NoUpcomingAppointments")}
      />
    </section>
  );
}

function StaffShortcuts({ menu }: { menu: MenuItem[] }) {
  // The role's own menu (wasm-core menuFor), without Home itself.
  const links = menu.filter((item) => item.Path !== "/home");
  return (
    <section className="panel" aria-labelledby="shortcuts">
      <h2 id="shortcuts">Where to go</h2>
      <ul className="shortcuts">
        {links.map((item) => (
          <li key={item.Key}>
            <Link to={item.Children[0]?.Path ?? item.Path}>{item.Label}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
