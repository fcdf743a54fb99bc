import { useEffect, useId, type ReactNode } from "react";
import { LogoMark } from "../logo";
import { LanguageSwitch } from "../../i18n/labels";
import "../../styles/login.css";

/** The branded card of the sign-in page and the membership pages (spec 02 §2.1): the portal
 * mark, the title (also the document title) and an optional lead line. */
export function AuthCard({
  title,
  lead,
  className,
  brand,
  children,
}: {
  title: string;
  lead?: ReactNode;
  className?: string;
  /** Replaces the portal mark (the sign-in page draws the clinic's logo per LoginPageSettings). */
  brand?: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  useEffect(() => {
    document.title = `${title} · Imaging Patient Portal`;
  }, [title]);
  return (
    <div className="login-page">
      <LanguageSwitch className="login-language" />
      <main className={className ? `login-card ${className}` : "login-card"} aria-labelledby={id}>
        {brand ?? (
          <div className="login-brand">
            <LogoMark />
            <span>
              Imaging <strong>Portal</strong>
            </span>
          </div>
        )}
        <h1 id={id}>{title}</h1>
        {lead && <p className="login-lead">{lead}</p>}
        {children}
      </main>
    </div>
  );
}
