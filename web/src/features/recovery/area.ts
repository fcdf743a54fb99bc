import { useLocation } from "react-router";

/** The membership base a page was opened under (spec 02 §2.1): /patient, /staff or /membership. */
export type Area = "patient" | "staff" | "membership";

export function useArea(): Area {
  const first = useLocation().pathname.split("/")[1]?.toLowerCase();
  return first === "staff" ? "staff" : first === "membership" ? "membership" : "patient";
}

/** Where "Back to Login" leads: the staff login for the staff area, else the patient login. */
export function loginOf(area: Area): string {
  return area === "staff" ? "/staff/login" : "/patient/login";
}
