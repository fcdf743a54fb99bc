import { type ReactNode } from "react";
import { AuthCard } from "../../components/auth-card/auth-card";
import "./registration.css";

/** The card the membership pages share with the sign-in page (spec 02 §2.1). */
export function MembershipCard({ title, wide, children }: { title: string; wide?: boolean; children: ReactNode }) {
  return (
    <AuthCard title={title} className={`membership-card${wide ? " membership-wide" : ""}`}>
      {children}
    </AuthCard>
  );
}
