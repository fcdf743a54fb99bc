import { useEffect, type ReactNode } from "react";
import { LogoMark } from "../../components/logo";
import "../auth/login.css";
import "./registration.css";

/** The card the membership pages share with the sign-in page (spec 02 §2.1). */
export function MembershipCard({ title, wide, children }: { title: string; wide?: boolean; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Imaging Patient Portal`;
  }, [title]);
  return (
    <div className="login-page">
      <main className={`login-card membership-card${wide ? " membership-wide" : ""}`} aria-labelledby="membership-title">
        <div className="login-brand">
          <LogoMark />
          <span>
            Imaging <strong>Portal</strong>
          </span>
        </div>
        <h1 id="membership-title">{title}</h1>
        {children}
      </main>
    </div>
  );
}
